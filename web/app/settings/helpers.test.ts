import { describe, expect, it } from 'vitest'
import { changedFields, parseEvents, toColorInput } from './forms'
import { actionLabel, detailsText } from '../audit/AuditLog'
import { curlSubmit, httpSubmit, sdkConfig, shellQuote, widgetTag } from '../projects/snippets'

describe('changedFields', () => {
  it('keeps only what differs, comparing arrays and objects by value', () => {
    const prev = { name: 'A', on: true, statuses: ['open'], theme: { mode: 'light' } }
    expect(changedFields(prev, { ...prev })).toEqual({})
    expect(changedFields(prev, { ...prev, name: 'B', statuses: ['open', 'resolved'] })).toEqual({ name: 'B', statuses: ['open', 'resolved'] })
    expect(changedFields(prev, { ...prev, theme: { mode: 'dark' } })).toEqual({ theme: { mode: 'dark' } })
    expect(changedFields(prev, { ...prev, on: false })).toEqual({ on: false })
  })
})

describe('toColorInput', () => {
  it.each([
    ['#2E5BFF', '#2e5bff'],
    ['#abc', '#aabbcc'],
    ['', '#2e5bff'],
    ['red', '#2e5bff'],
  ])('%s → %s', (v, want) => expect(toColorInput(v)).toBe(want))
})

describe('parseEvents', () => {
  it('splits the stored comma-separated list', () => {
    expect(parseEvents('bug_created, bug_updated,,comment_added')).toEqual(['bug_created', 'bug_updated', 'comment_added'])
    expect(parseEvents('')).toEqual([])
  })
})

describe('audit helpers', () => {
  it('labels actions and flattens details', () => {
    expect(actionLabel('project.created')).toBe('Project created')
    expect(actionLabel('member.role_changed')).toBe('Member role changed')
    expect(detailsText({ name: 'My Game', fields: ['name', 'is_public'] })).toBe('name: My Game · fields: name, is_public')
    expect(detailsText(null)).toBe('')
  })
})

describe('setup snippets', () => {
  const origin = 'https://bugs.example.com'
  const key = 'sk_live_abc'
  it('quotes for the shell, including single quotes', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
  })
  it('curl posts to this server with the key and a valid JSON body', () => {
    const s = curlSubmit(origin, key)
    expect(s).toContain(`'https://bugs.example.com/api/bugs/submit'`)
    expect(s).toContain(`'X-API-Key: sk_live_abc'`)
    const body = /-d '(.*)'$/.exec(s)![1]!
    expect(JSON.parse(body)).toMatchObject({ title: expect.any(String), description: expect.any(String) })
  })
  it('the HTTP request names the host and path', () => {
    const s = httpSubmit('http://localhost:8080', key)
    expect(s.split('\n').slice(0, 4)).toEqual(['POST /api/bugs/submit HTTP/1.1', 'Host: localhost:8080', 'Content-Type: application/json', 'X-API-Key: sk_live_abc'])
  })
  it('the SDK config and widget tag carry base URL and key', () => {
    expect(JSON.parse(sdkConfig(origin, key))).toEqual({ base_url: origin, api_key: key })
    const tag = widgetTag(origin, key)
    expect(tag).toContain('<script src="https://bugs.example.com/widget.js" data-project-key="sk_live_abc" data-canvas="#game" data-game-version="1.0.0" async></script>')
    // The comment says what the attributes are for, data-canvas first.
    expect(tag.split('\n')[0]).toMatch(/^<!-- data-canvas: a CSS selector of your game's <canvas>/)
  })
})
