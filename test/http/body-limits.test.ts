// Bodies are read within the route's limit whatever their framing (Content-Length or chunked), and
// a route that needs a session refuses a request without credentials before reading its body.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { needsSession } from '../../src/http/body-guard'
import { apiPathOf } from '../../src/http/pipeline'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { SENTRY_ROUTE_PREFIX } from '../../src/http/sentry-paths'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const MB = 1024 * 1024

/** Posts `total` bytes as a chunked stream (no Content-Length) of `head` then filler; `pulled` is what the server read. */
async function postChunked(path: string, o: { total: number; head?: string; headers?: Record<string, string>; chunk?: number }) {
  const chunk = o.chunk ?? 256 * 1024
  const head = Buffer.from(o.head ?? '{"name":"')
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= o.total) return c.close()
      const piece = Buffer.alloc(Math.min(chunk, o.total - at), 'a')
      if (at === 0) piece.set(head)
      c.enqueue(piece)
      at += piece.length
    },
  })
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9', ...o.headers },
      duplex: 'half',
    } as RequestInit),
  )
  return { status: res.status, body: await res.json(), pulled: at, total: o.total }
}

describe('a route that needs a session', () => {
  it('answers 401 to a chunked body without credentials before reading it', async () => {
    const res = await postChunked('/api/projects', { total: 50 * MB })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ ok: false, error: 'missing or invalid session token' })
    expect(res.pulled).toBeLessThanOrEqual(256 * 1024)
  })

  it('stops reading a chunked body at the 1 MB limit with 400 in the envelope', async () => {
    const { token } = await createUser(t)
    const res = await postChunked('/api/projects', { total: 5 * MB, headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 1 MB)' })
    expect(res.pulled).toBeLessThan(2 * MB)
  })

  it('counts a chunked multipart upload against its route limit (11 MB)', async () => {
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    const report = await createReportIn(t, project)
    const head = '--b\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n'
    const res = await postChunked(`/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`, {
      total: 30 * MB,
      head,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'multipart/form-data; boundary=b' },
    })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 11 MB)' })
    expect(res.pulled).toBeLessThan(13 * MB)
  })

  it('still takes a body within the limit, chunked', async () => {
    const { token } = await createUser(t)
    const body = Buffer.from(JSON.stringify({ name: 'Chunked Game', description: 'd'.repeat(1000) }))
    const res = await postChunked('/api/projects', { total: body.length, head: body.toString(), headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(201)
  })

  it('lets the browser session cookie through to the auth check', async () => {
    const res = await postChunked('/api/projects', { total: 12, head: '{"name":"x"}', headers: { cookie: 'theme=dark; glitchbox_session=nope' } })
    // The body was read and the auth check decided (a bad cookie: 401, or 403 without the Origin check).
    expect(res.pulled).toBe(12)
    expect([401, 403]).toContain(res.status)
  })
})

describe('public routes', () => {
  it('stop reading a chunked login body at 1 MB with 400', async () => {
    const res = await postChunked('/api/auth/login', { total: 10 * MB })
    expect(res.status).toBe(400)
    expect(res.pulled).toBeLessThan(2 * MB)
  })

  it('refuse a declared Content-Length past the limit before reading', async () => {
    const res = await t.request('POST', '/api/auth/signup', { body: '{}', headers: { 'content-type': 'application/json', 'content-length': String(2 * MB) } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 1 MB)' })
  })

  it('an empty body with a JSON content type is no body (not a parse error)', async () => {
    const { token } = await createUser(t)
    const res = await t.request('POST', '/api/auth/logout', { token, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(200)
  })
})

describe('the list of routes that take a body without a session', () => {
  it('names no route that has an auth guard… and every other body route has one', () => {
    const unguarded: string[] = []
    for (const route of t.app.routes) {
      const apiPath = apiPathOf(route.path)
      if (apiPath === null || ['GET', 'HEAD', 'OPTIONS'].includes(route.method)) continue
      // Sentry's protocol routes take their key from the request or the envelope itself (http/sentry-paths.ts).
      if (route.path.startsWith(SENTRY_ROUTE_PREFIX)) continue
      const guarded = ((route.hooks as { transform?: unknown[] }).transform?.length ?? 0) > 0
      if (needsSession(apiPath) && !guarded) unguarded.push(`${route.method} ${route.path}`)
    }
    // A route listed here would refuse callers without credentials although it takes them: add it to OPEN_ROUTES.
    expect(unguarded).toEqual([])
  })
})
