// Against the real server (its own process, real sockets): chunked bodies are refused before
// reading without credentials and cut at the route limit, and oversized bodies and URLs are
// answered in the envelope where the server sees them.
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer } from '../helpers/server-process'
import { chunkedRequest, rawRequest, rssMb } from './raw-http'

let server: Awaited<ReturnType<typeof startServer>>
beforeAll(async () => {
  // A larger header limit, as the start script and the binary set it, so long URLs reach the app.
  server = await startServer({ bunArgs: ['--max-http-header-size=65536'] })
}, 30_000)
afterAll(async () => {
  await server.stop()
  rmSync(server.dataDir, { recursive: true, force: true })
})

const MB = 1024 * 1024
const post = (path: string) => `POST ${path} HTTP/1.1\r\nContent-Type: application/json`
const json = (a: { body: string }) => JSON.parse(a.body)

describe('chunked bodies', () => {
  it('eight parallel 50 MB chunked posts to /api/projects without credentials: 401 each, memory stays flat', async () => {
    const before = await rssMb(server.proc.pid)
    const answers = await Promise.all(Array.from({ length: 8 }, () => chunkedRequest(server.port, post('/api/projects'), 50 * MB)))
    for (const a of answers) {
      expect(a.status).toBe(401)
      expect(json(a)).toEqual({ ok: false, error: 'missing or invalid session token' })
      expect(a.headers['x-content-type-options']).toBe('nosniff')
    }
    // Before: 162 → 648 MB. Nothing of these bodies is kept now.
    expect((await rssMb(server.proc.pid)) - before).toBeLessThan(60)
  }, 60_000)

  it('cuts a chunked login body at 1 MB with 400 in the envelope', async () => {
    // Sent at about 50 MB/s, the whole body takes a second: the 400 comes long before its end.
    const a = await chunkedRequest(server.port, post('/api/auth/login'), 50 * MB, undefined, undefined, { pauseMsPerMb: 20 })
    expect(a.status).toBe(400)
    expect(json(a)).toEqual({ ok: false, error: 'request body too large (max 1 MB)' })
    expect(a.sent).toBeLessThan(50 * MB)
  }, 30_000)
})

describe('oversized requests', () => {
  it('answers a Content-Length past every route limit (but within Bun cap) with 400 in the envelope, unread', async () => {
    const a = await rawRequest(server.port, `POST /api/session-replays HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${60 * MB}\r\n\r\n`)
    expect(a.status).toBe(400)
    expect(json(a)).toEqual({ ok: false, error: 'request body too large (max 52 MB)' })
  })

  it('answers a query string over 8 KB with 414 in the envelope', async () => {
    for (const size of [10_000, 20_000]) {
      const a = await rawRequest(server.port, `GET /api/maintenance/active?q=${'x'.repeat(size)} HTTP/1.1\r\nHost: x\r\n\r\n`)
      expect(a.status).toBe(414)
      expect(json(a)).toEqual({ ok: false, error: 'request URL too long (max 8 KB)' })
    }
  })
})
