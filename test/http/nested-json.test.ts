// Deeply nested JSON is refused while parsing (64 levels) with a 400 in microseconds, on every
// parser the server uses (Elysia's for normal routes, the SDK's streaming parser, multipart fields),
// and no error message echoes the caller's input.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
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
// Before the fix these took 1.3–6 s: the body reached a JSON parser whole. What keeps them fast is
// that the depth check refuses it first, and that is what these tests check, without a clock (a
// wall-time bound is what a busy CI machine breaks): no JSON.parse call ever sees the deep text.
const parsedDeepText = async <T>(run: () => Promise<T>) => {
  const parse = vi.spyOn(JSON, 'parse')
  try {
    const out = await run()
    return { out, parsedDeep: parse.mock.calls.some(([text]) => typeof text === 'string' && text.includes('['.repeat(65))) }
  } finally {
    parse.mockRestore()
  }
}

describe('nested JSON to signup (no login needed)', () => {
  it('answers the reproduction ({"metadata": + 100,000 [) with 400 before any JSON parser sees it, and /health answers meanwhile', async () => {
    const body = `{"metadata":${'['.repeat(100_000)}`
    const [signup, health] = await Promise.all([parsedDeepText(() => t.request('POST', '/api/auth/signup', json(body))), t.request('GET', '/health')])
    expect(signup.out.status).toBe(400)
    expect(signup.out.body).toEqual(DEEP)
    expect(signup.parsedDeep).toBe(false)
    expect(health.status).toBe(200)
  })

  it.each([
    ['depth 20,000, balanced', `{"metadata":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    ['depth 65 of objects', `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`],
  ])('answers %s with 400', async (_name, body) => {
    for (const length of [undefined, String(Buffer.byteLength(body))]) {
      const { out, parsedDeep } = await parsedDeepText(() => t.request('POST', '/api/auth/signup', json(body, length ? { 'content-length': length } : {})))
      expect(out.status).toBe(400)
      expect(out.body).toEqual(DEEP)
      expect(parsedDeep).toBe(false)
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
  it('refuses a big chunked submit nested 100,000 deep with 400 while the body is still arriving', async () => {
    const { key } = await sdkProject(t)
    // The stream sends the deep prefix and then stays open until the answer is in: the streaming
    // parser must refuse from what it has read (a parser that waited for the end would never answer,
    // and the test would time out).
    let answered = false
    const encoder = new TextEncoder()
    const chunks = [`{"title":"Deep","description":"d","metadata":`, '['.repeat(50_000), '['.repeat(50_000)]
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = chunks.shift()
        if (chunk !== undefined) return controller.enqueue(encoder.encode(chunk))
        while (!answered) await new Promise((resolve) => setTimeout(resolve, 20))
        controller.close()
      },
    })
    const res = await t.app.handle(
      new Request('http://localhost/api/bugs/submit', { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body: stream, duplex: 'half' } as RequestInit),
    )
    answered = true
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(DEEP)
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
