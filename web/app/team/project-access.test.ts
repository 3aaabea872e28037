import { describe, expect, it } from 'vitest'
import { accessLabel, accessProblem, toggled } from './project-access'

const projects = [
  { id: 'a', name: 'Aurora Racer' },
  { id: 'b', name: 'Brimstone Kart' },
]

describe('accessLabel', () => {
  it('names every project, the listed ones the viewer knows, or none', () => {
    expect(accessLabel('all', projects)).toBe('All projects')
    expect(accessLabel(['b', 'a'], projects)).toBe('Aurora Racer, Brimstone Kart')
    expect(accessLabel(['hidden'], projects)).toBe('No project')
  })
})

describe('toggled', () => {
  it('adds and removes ids, starting from an empty list when leaving "all"', () => {
    expect(toggled('all', 'a', true)).toEqual(['a'])
    expect(toggled(['a'], 'b', true)).toEqual(['a', 'b'])
    expect(toggled(['a', 'b'], 'a', false)).toEqual(['b'])
  })
})

describe('accessProblem', () => {
  it('asks for at least one project when limited', () => {
    expect(accessProblem('all')).toBeUndefined()
    expect(accessProblem(['a'])).toBeUndefined()
    expect(accessProblem([])).toMatch(/at least one/)
  })
})
