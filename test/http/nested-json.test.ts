// Deeply nested JSON is refused while parsing (64 levels) with a 400 in microseconds, on every
// parser the server uses (Elysia's for normal routes, the SDK's streaming parser, multipart fields),
// and no error message echoes the caller's input.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeIssues } from '../../src/http/errors'
import { nestsDeeperThan } from '../../src/http/json-stream/json-depth'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const DEEP = { ok: false, error: 'request body nests deeper than 64 levels' }
const json = (body: string, extra: Record<string, string> = {}) => ({ body, headers: { 'content-type': 'application/json', ...extra } })
// Before the fix these took 1.3–6 s; a generous bound keeps a busy CI machine's pauses from failing them.
const FAST_MS = 1000
const timed = async <T>(run: () => Promise<T>) => {
  const start = performance.now()
  const out = await run()
  return { out, ms: performance.now() - start }
}

describe('nested JSON to signup (no login needed)', () => {
  it('answers the reproduction ({"metadata": + 100,000 [) with 400 at once, and /health stays fast meanwhile', async () => {
    const body = `{"metadata":${'['.repeat(100_000)}`
    const [signup, health] = await Promise.all([timed(() => t.request('POST', '/api/auth/signup', json(body))), timed(() => t.request('GET', '/health'))])
    expect(signup.out.status).toBe(400)
    expect(signup.out.body).toEqual(DEEP)
    expect(signup.ms).toBeLessThan(FAST_MS)
    expect(health.out.status).toBe(200)
    expect(health.ms).toBeLessThan(FAST_MS)
  })

  it.each([
    ['depth 20,000, balanced', `{"metadata":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    ['depth 65 of objects', `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`],
  ])('answers %s with 400', async (_name, body) => {
    for (const length of [undefined, String(Buffer.byteLength(body))]) {
      const { out, ms } = await timed(() => t.request('POST', '/api/auth/signup', json(body, length ? { 'content-length': length } : {})))
      expect(out.status).toBe(400)
      expect(out.body).toEqual(DEEP)
      expect(ms).toBeLessThan(FAST_MS)
    }
  })

  it('still takes 64 levels (and brackets inside strings do not count)', async () => {
    const inString = `{"email":"a@example.com","password":"${'['.repeat(100)}","metadata":${'['.repeat(63)}${']'.repeat(63)}}`
    const res = await t.request('POST', '/api/auth/signup', json(inString))
    expect(res.body).not.toEqual(DEEP)
    expect(res.status).toBe(201)
  })

  it('never echoes a huge key or value into the error', async () => {
    const res = await t.request('POST', '/api/auth/signup', { body: { email: 'x'.repeat(100_000), password: ['a'.repeat(100_000)] } })
    expect(res.status).toBe(400)
    expect(res.body.error.length).toBeLessThan(700)
  })
})

describe('the SDK streaming parser', () => {
  it('refuses a big chunked submit nested 100,000 deep with 400', async () => {
    const { key } = await sdkProject(t)
    const body = `{"title":"Deep","description":"d","metadata":${'['.repeat(100_000)}`
    const { out, ms } = await timed(() => t.request('POST', '/api/bugs/submit', { apiKey: key, ...json(body) }))
    expect(out.status).toBe(400)
    expect(out.body).toEqual(DEEP)
    expect(ms).toBeLessThan(FAST_MS)
  })

  it('refuses a small submit of known length nested past 64 with 400', async () => {
    const { key } = await sdkProject(t)
    const body = `{"title":"Deep","description":"d","metadata":${'['.repeat(200)}${']'.repeat(200)}}`
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, ...json(body, { 'content-length': String(body.length) }) })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(DEEP)
  })
})

describe('describeIssues', () => {
  it('cuts keys and messages that carry input', () => {
    const text = describeIssues([
      { path: ['metadata', 'k'.repeat(50_000)], message: `Unrecognized key: "${'k'.repeat(50_000)}"` },
      { path: ['x'.repeat(50_000)], message: 'Invalid input: expected string, received undefined' },
    ])
    expect(text.length).toBeLessThanOrEqual(600)
    expect(text).toMatch(/^x{39}… is required; metadata\.k{39}…: Unrecognized key/)
  })
})

describe('nestsDeeperThan', () => {
  it.each([
    ['[[1]]', 1, true],
    ['[[1]]', 2, false],
    ['["[[[[", {"a": "\\"[[[["}]', 2, false],
    ['["\\\\", [[1]]]', 2, true],
    ['{"a":{"b":{"c":1}}}', 2, true],
  ])('%s deeper than %i: %s', (text, max, expected) => {
    expect(nestsDeeperThan(text, max)).toBe(expected)
  })
})

describe('X-Content-Type-Options', () => {
  it('is nosniff on every JSON answer: success, errors, 404, 429 and /health', async () => {
    const answers = [
      await t.request('GET', '/api/maintenance/active'),
      await t.request('GET', '/api/projects'),
      await t.request('GET', '/api/no-such-route'),
      await t.request('POST', '/api/auth/signup', json('{"a":')),
      await t.request('GET', '/health'),
      await t.request('GET', '/openapi.json'),
    ]
    for (let i = 0; i < 10; i++) await t.request('POST', '/api/auth/login', { ip: '198.51.100.3', body: {} })
    answers.push(await t.request('POST', '/api/auth/login', { ip: '198.51.100.3', body: {} }))
    expect(answers.map((a) => a.status)).toEqual([200, 401, 404, 400, 200, 200, 429])
    for (const a of answers) {
      expect(a.headers.get('content-type')).toMatch(/json/)
      expect(a.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('multipart fields', () => {
  it('refuses a replay whose metadata field nests past 64 levels with 400', async () => {
    const { key } = await sdkProject(t, 'studio')
    const form = new FormData()
    form.append('duration_sec', '10')
    form.append('metadata', `${'['.repeat(20_000)}${']'.repeat(20_000)}`)
    form.append('file', new Blob([new Uint8Array(100)]), 'replay.bin')
    const res = await t.request('POST', '/api/session-replays', { apiKey: key, body: form })
    expect(res.status).toBe(400)
    expect(res.body).toEqual(DEEP)
  })
})
