import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('health', () => {
  it('answers healthy outside the envelope', async () => {
    const res = await t.request('GET', '/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'healthy', database: { engine: onSqlite ? 'sqlite' : 'postgresql' } })
  })

  it.skipIf(!onSqlite)('answers 503 when the database cannot be queried (SQLite: closed connection)', async () => {
    t.sqlite.close()
    const res = await t.request('GET', '/health')
    expect(res.status).toBe(503)
    expect(res.body.status).toBe('unhealthy')
  })
})

describe('envelope and errors', () => {
  it('wraps success in {ok:true,data} under /api and /api/v1', async () => {
    for (const prefix of ['/api', '/api/v1']) {
      const res = await t.request('GET', `${prefix}/maintenance/active`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true, data: { active: false, message: null, ends_at: null, started_at: null } })
    }
  })

  it('answers unknown routes with 404 in the envelope', async () => {
    for (const path of ['/api/no-such-route', '/api/v1/no-such-route', '/nowhere']) {
      const res = await t.request('GET', path)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'not found' })
    }
  })

  it('refuses bodies over the route limit with 400 before reading them (the spec: an oversized upload)', async () => {
    const body = 'x'.repeat(2 * 1024 * 1024)
    const res = await t.request('POST', '/api/maintenance/active', { body, headers: { 'content-type': 'application/json', 'content-length': String(body.length) } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 1 MB)' })
  })
})

describe('rate limits', () => {
  it('sets rate headers on every API response and 429 with Retry-After past the budget', async () => {
    const ip = '203.0.113.9'
    let last
    for (let i = 0; i < 300; i++) last = await t.request('GET', '/api/maintenance/active', { ip })
    expect(last!.status).toBe(200)
    expect(last!.headers.get('x-ratelimit-limit')).toBe('300')
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0')
    const reset = Number(last!.headers.get('x-ratelimit-reset'))
    expect(reset).toBeGreaterThan(t.clock.now().getTime() / 1000)
    const limited = await t.request('GET', '/api/maintenance/active', { ip })
    expect(limited.status).toBe(429)
    expect(limited.body.ok).toBe(false)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another client is unaffected, and the window resets after a minute.
    expect((await t.request('GET', '/api/maintenance/active', { ip: '203.0.113.10' })).status).toBe(200)
    t.clock.advance(60_000)
    expect((await t.request('GET', '/api/maintenance/active', { ip })).status).toBe(200)
  })

  it('applies the tightest budget: login allows 10 a minute', async () => {
    const ip = '198.51.100.7'
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await t.request('POST', '/api/auth/login', { ip, body: {} })).status)
    expect(statuses.slice(0, 10)).not.toContain(429)
    expect(statuses[10]).toBe(429)
  })
})

describe('API documentation', () => {
  it('serves an OpenAPI 3 document and a docs page with its assets, outside the envelope', async () => {
    const spec = await t.request('GET', '/openapi.json')
    expect(spec.status).toBe(200)
    expect(spec.body.openapi).toMatch(/^3\./)
    expect(spec.body.info.version).toBe('1.0.0')
    expect(spec.body.paths['/api/maintenance/active']).toBeDefined()
    const docs = await t.request('GET', '/docs')
    expect(docs.status).toBe(200)
    expect(docs.body).toContain('/docs/assets/scalar.js')
    const asset = await t.request('GET', '/docs/assets/scalar.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('javascript')
  })
})

describe('rate limiter memory', () => {
  it('stays bounded with a flood of distinct addresses and forgets old windows', async () => {
    const { RateLimiter } = await import('../../src/http/rate-limit')
    const limiter = new RateLimiter(t.clock, 1000)
    for (let i = 0; i < 50_000; i++) limiter.hit(`10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, [{ name: 'global', limit: 300 }])
    expect(limiter.size).toBeLessThanOrEqual(1000 + 4096)
    t.clock.advance(60_000)
    limiter.hit('192.0.2.1', [{ name: 'global', limit: 300 }])
    expect(limiter.size).toBe(1)
  })
})

describe('unexpected errors', () => {
  it('answers 500 without internals and logs the stack with the request id', async () => {
    const { Elysia } = await import('elysia')
    const { httpPipeline } = await import('../../src/http/pipeline')
    const app = new Elysia().use(httpPipeline(t.deps)).get('/api/explode', () => {
      throw new Error('secret connection string postgres://u:p@db')
    })
    const res = await app.handle(new Request('http://localhost/api/explode', { headers: { 'x-request-id': 'req-123' } }))
    expect(res.status).toBe(500)
    const body = await res.json()
    expect(body).toEqual({ ok: false, error: 'internal server error (request id req-123)' })
    const logged = t.logs.find((l) => l.msg === 'unhandled error')!
    expect(logged).toMatchObject({ request_id: 'req-123', path: '/api/explode' })
    expect(String(logged.stack)).toContain('secret connection string')
  })

  it('answers malformed JSON with 400 in the envelope', async () => {
    const { Elysia } = await import('elysia')
    const { httpPipeline } = await import('../../src/http/pipeline')
    const z = await import('zod')
    const app = new Elysia().use(httpPipeline(t.deps)).post('/api/echo', ({ body }) => body, { body: z.object({ title: z.string(), description: z.string() }) })
    // Any bearer token: a route outside the public list refuses a request without credentials before its body.
    const headers = { 'content-type': 'application/json', authorization: 'Bearer t' }
    const post = (body: string) => app.handle(new Request('http://localhost/api/echo', { method: 'POST', body, headers }))
    const bad = await post('{"title": ')
    expect(bad.status).toBe(400)
    expect((await bad.json()).error).toMatch(/malformed/)
    const missing = await post('{}')
    expect(missing.status).toBe(400)
    expect((await missing.json()).error).toBe('title and description are required')
    const empty = await app.handle(new Request('http://localhost/api/echo', { method: 'POST', headers }))
    expect(empty.status).toBe(400)
  })
})
