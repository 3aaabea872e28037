import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../helpers/test-app'

type T = ReturnType<typeof createTestApp>

describe('the dashboard shell and its assets', () => {
  let t: T
  let home: Awaited<ReturnType<T['request']>>
  beforeAll(async () => {
    t = createTestApp()
    // The first request bundles web/app/index.html from source.
    home = await t.request('GET', '/', { headers: { accept: 'text/html' } })
  }, 60_000)
  afterAll(() => t.close())

  const assetUrls = () => [...String(home.body).matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!)

  it('answers / with the HTML shell, no-cache, and the security headers', () => {
    expect(home.status).toBe(200)
    expect(home.headers.get('content-type')).toMatch(/^text\/html/)
    expect(String(home.body)).toContain('<div id="app">')
    expect(home.headers.get('cache-control')).toBe('no-cache')
    const csp = home.headers.get('content-security-policy')!
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).toContain("frame-ancestors 'none'")
    expect(home.headers.get('x-content-type-options')).toBe('nosniff')
    expect(home.headers.get('referrer-policy')).toBeTruthy()
  })

  it('answers /favicon.ico with an icon (issue 29)', async () => {
    const res = await t.app.handle(new Request('http://localhost/favicon.ico'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await res.arrayBuffer())
    // An icon directory holding one 32×32 image, whose bytes follow it.
    expect([...bytes.slice(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32])
    expect(new DataView(bytes.buffer).getUint32(14, true)).toBe(bytes.length - 22)
  })

  it('links its script and stylesheet by absolute, hashed /assets/ URLs (deep links load them too), with no inline script', () => {
    const urls = assetUrls()
    expect(urls.some((u) => u.endsWith('.js'))).toBe(true)
    expect(urls.some((u) => u.endsWith('.css'))).toBe(true)
    for (const u of urls) expect(u).toMatch(/-[a-z0-9]{6,}\.(js|css)$/)
    expect(String(home.body)).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
  })

  const deepLinks = [
    '/login',
    '/signup',
    '/forgot-password',
    '/reset-password?token=abc',
    '/verify-email?status=ok',
    '/projects',
    '/projects/new',
    '/projects/my-game',
    '/projects/my-game/reports?status=open&q=crash&page=2',
    '/projects/x/reports/1',
    '/projects/my-game/settings/webhooks',
    '/team',
    '/account',
    '/billing',
    '/invite?token=abc',
  ]
  it.each(deepLinks)('answers the shell at %s (a fresh visit loads)', async (path) => {
    const res = await t.request('GET', path)
    expect(res.status).toBe(200)
    expect(res.body).toBe(home.body)
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('content-security-policy')).toBeTruthy()
  })

  it('serves every asset with its type and a year-long immutable cache, 304 on a matching ETag', async () => {
    for (const url of assetUrls()) {
      const res = await t.request('GET', url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(url.endsWith('.js') ? /javascript/ : /text\/css/)
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      const etag = res.headers.get('etag')!
      expect(etag).toBeTruthy()
      const again = await t.request('GET', url, { headers: { 'if-none-match': etag } })
      expect(again.status).toBe(304)
    }
  })

  it('gzips scripts and stylesheets for clients that accept it', async () => {
    const script = assetUrls().find((u) => u.endsWith('.js'))!
    const plain = await (await t.app.handle(new Request(`http://localhost${script}`))).arrayBuffer()
    const res = await t.app.handle(new Request(`http://localhost${script}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } }))
    expect(res.headers.get('content-encoding')).toBe('gzip')
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i)
    const zipped = new Uint8Array(await res.arrayBuffer())
    expect(zipped.byteLength).toBeLessThan(plain.byteLength / 2)
    expect(Buffer.from(Bun.gunzipSync(zipped)).equals(Buffer.from(plain))).toBe(true)
  })

  it('answers 404 for an unknown asset, and JSON 404s under /api', async () => {
    expect((await t.request('GET', '/assets/nope-12345678.js')).status).toBe(404)
    for (const path of ['/api/nope', '/api/v1/projects/x/nope', '/api/projects/x/reports/1/zzz']) {
      const res = await t.request('GET', path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/json/)
      expect(res.body).toEqual({ ok: false, error: expect.any(String) })
    }
  })

  it('does not answer the shell for paths outside the dashboard', async () => {
    for (const path of ['/nope', '/wp-admin', '/projectsx']) {
      const res = await t.request('GET', path)
      expect(res.status).toBe(404)
      expect(String(res.body)).not.toContain('<div id="app">')
    }
  })

  const page = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }
  it.each(['/nope', '/settings', '/reports/12', '/projectsx', '/dashboard/analytics'])('answers a browser opening the unknown path %s with the shell and status 404 (the app shows its 404 screen)', async (path) => {
    const res = await t.request('GET', path, { headers: page })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.body).toBe(home.body)
    expect(res.headers.get('content-security-policy')).toBeTruthy()
  })

  it("keeps the server's own 404s for a browser: JSON under /api, the public pages' HTML page, no shell for the docs or assets", async () => {
    for (const path of ['/api/nope', '/api/v1/projects/x/nope', '/docs/nope', '/health/x', '/public-assets/nope.js']) {
      const res = await t.request('GET', path, { headers: page })
      expect(res.status, path).toBe(404)
      expect(String(res.body), path).not.toContain('<div id="app">')
    }
    expect((await t.request('GET', '/api/nope', { headers: page })).body).toEqual({ ok: false, error: 'not found' })
    const tracker = await t.request('GET', '/tracker/no-such-game', { headers: page })
    expect(tracker.status).toBe(404)
    expect(String(tracker.body)).toContain('<html')
    expect(String(tracker.body)).not.toContain('<div id="app">')
    // Only pages are opened with GET: other methods keep the JSON answer.
    const post = await t.request('POST', '/nope', { headers: page, body: {} })
    expect(post.status).toBe(404)
    expect(post.body).toEqual({ ok: false, error: 'not found' })
  })
})
