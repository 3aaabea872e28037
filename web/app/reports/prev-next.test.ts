import { describe, expect, it } from 'vitest'
import { countNewReports, newReportsMessage } from './new-reports'
import { neighbours, resolveNeighbour } from './prev-next'

describe('neighbours', () => {
  const page2 = { numbers: [40, 38, 37], page: 2, totalPages: 3 }
  it('inside a page', () => {
    expect(neighbours(page2, 38)).toEqual({ prev: { number: 40, page: 2 }, next: { number: 37, page: 2 }, index: 1 })
  })
  it('at page edges it points to the adjacent page', () => {
    expect(neighbours(page2, 40).prev).toEqual({ page: 1, pick: 'last' })
    expect(neighbours(page2, 37).next).toEqual({ page: 3, pick: 'first' })
  })
  it('none before the first report or after the last', () => {
    expect(neighbours({ numbers: [5, 4], page: 1, totalPages: 1 }, 5)).toEqual({ prev: null, next: { number: 4, page: 1 }, index: 0 })
    expect(neighbours({ numbers: [5, 4], page: 1, totalPages: 1 }, 4).next).toBeNull()
  })
  it('nothing when the report is not in the list (for example its status no longer matches)', () => {
    expect(neighbours(page2, 99)).toEqual({ prev: null, next: null, index: -1 })
  })
})

describe('resolveNeighbour', () => {
  it('reads the adjacent page only when needed', async () => {
    const read: number[] = []
    const readPage = async (p: number) => (read.push(p), p === 1 ? [50, 45, 41] : [])
    expect(await resolveNeighbour({ number: 7, page: 2 }, readPage)).toEqual({ number: 7, page: 2 })
    expect(read).toEqual([])
    expect(await resolveNeighbour({ page: 1, pick: 'last' }, readPage)).toEqual({ number: 41, page: 1 })
    expect(await resolveNeighbour({ page: 1, pick: 'first' }, readPage)).toEqual({ number: 50, page: 1 })
    expect(await resolveNeighbour({ page: 3, pick: 'first' }, readPage)).toBeNull()
    expect(await resolveNeighbour(null, readPage)).toBeNull()
  })
})

describe('new reports notice', () => {
  it('counts the numbers above the baseline', () => {
    expect(countNewReports(10, [12, 11, 10, 9])).toEqual({ count: 2, more: false })
    expect(countNewReports(10, [10, 9])).toEqual({ count: 0, more: false })
    expect(countNewReports(10, [])).toEqual({ count: 0, more: false })
  })
  it('says when the whole batch is new', () => {
    expect(countNewReports(0, [3, 2, 1])).toEqual({ count: 3, more: true })
    expect(newReportsMessage({ count: 25, more: true })).toBe('25+ new reports')
    expect(newReportsMessage({ count: 1, more: false })).toBe('1 new report')
    expect(newReportsMessage({ count: 2, more: false })).toBe('2 new reports')
  })
  it('says "matching" when the list is filtered', () => {
    expect(newReportsMessage({ count: 1, more: false }, true)).toBe('1 new matching report')
    expect(newReportsMessage({ count: 25, more: true }, true)).toBe('25+ new matching reports')
  })
})
