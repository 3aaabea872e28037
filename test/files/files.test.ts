import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { files } from '../../src/files/files.table'
import { isInlineSafe, parseRange } from '../../src/modules/attachments/file-download'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const TEXT = 'abcdefghijklmnopqrstuvwxyz0123456789' // 36 bytes
const store = (data: string | Uint8Array, fileName: string, declaredType?: string) =>
  t.deps.files.store(t.deps.db, { data: typeof data === 'string' ? new TextEncoder().encode(data) : data, fileName, declaredType, kind: 'attachment', maxBytes: 10 * 1024 * 1024 })

describe('parseRange', () => {
  it.each([
    [null, 100, null],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=90-500', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=5-2', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, null],
    ['items=0-1', 100, null],
    ['bytes=-', 100, null],
  ])('%s of %d bytes → %j', (header, size, expected) => expect(parseRange(header, size)).toEqual(expected))
})

describe('isInlineSafe', () => {
  it.each([
    ['image/png', true],
    ['video/mp4', true],
    ['text/plain', true],
    ['application/json', true],
    ['text/html', false],
    ['image/svg+xml', false],
    ['application/xhtml+xml', false],
    ['text/xml', false],
    ['text/javascript', false],
    ['application/octet-stream', false],
  ])('%s → %s', (mime, inline) => expect(isInlineSafe(mime)).toBe(inline))
})

describe('GET /api/files/:key', () => {
  it('serves the whole file with type, length, caching and safety headers', async () => {
    const f = await store(TEXT, 'notes.txt', 'text/plain')
    for (const prefix of ['/api', '/api/v1']) {
      const res = await t.request('GET', `${prefix}/files/${f.key}`)
      expect(res.status).toBe(200)
      expect(res.body).toBe(TEXT)
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
      expect(res.headers.get('content-length')).toBe('36')
      expect(res.headers.get('accept-ranges')).toBe('bytes')
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-disposition')).toBe(`inline; filename="notes.txt"; filename*=UTF-8''notes.txt`)
    }
  })

  it('serves single byte ranges with 206 and answers 416 past the end', async () => {
    const f = await store(TEXT, 'notes.txt')
    const get = (range: string) => t.request('GET', `/api/files/${f.key}`, { headers: { range } })
    const cases: [string, number, string, string | null][] = [
      ['bytes=0-9', 206, 'abcdefghij', 'bytes 0-9/36'],
      ['bytes=30-', 206, '456789', 'bytes 30-35/36'],
      ['bytes=-3', 206, '789', 'bytes 33-35/36'],
      ['bytes=0-1,4-5', 200, TEXT, null],
    ]
    for (const [range, status, body, contentRange] of cases) {
      const res = await get(range)
      expect(res.status).toBe(status)
      expect(res.body).toBe(body)
      expect(res.headers.get('content-range')).toBe(contentRange)
      expect(res.headers.get('content-length')).toBe(String(body.length))
    }
    const bad = await get('bytes=36-')
    expect(bad.status).toBe(416)
    expect(bad.headers.get('content-range')).toBe('bytes */36')
    expect(bad.body.ok).toBe(false)
  })

  it('seeks through a video with ranges, byte for byte', async () => {
    const video = new Uint8Array(256 * 1024)
    video.set([0x1a, 0x45, 0xdf, 0xa3])
    for (let i = 4; i < video.length; i++) video[i] = i % 251
    const f = await store(video, 'replay.webm', 'video/webm')
    const res = await t.app.handle(new Request(`http://localhost/api/files/${f.key}`, { headers: { range: 'bytes=100000-100999', 'x-forwarded-for': '10.9.9.9' } }))
    expect(res.status).toBe(206)
    expect(res.headers.get('content-type')).toBe('video/webm')
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/)
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(video.subarray(100000, 101000))
  })

  it.each([
    ['text/html', '<html><script>alert(1)</script></html>', 'page.html'],
    ['text/xml', '<?xml version="1.0"?><a/>', 'data.xml'],
    ['text/javascript', 'alert(1)', 'x.js'],
  ])('forces %s to download, as plain text', async (type, content, name) => {
    const f = await store(content, name, type)
    const res = await t.request('GET', `/api/files/${f.key}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/)
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('forces unknown types to download', async () => {
    const key = 'U'.repeat(43) + '.bin'
    mkdirSync(join(t.dir, 'files', key.slice(0, 2)), { recursive: true })
    writeFileSync(join(t.dir, 'files', key.slice(0, 2), key), 'raw')
    await t.deps.db.write((q) => q.insert(files).values({ key, mimeType: 'application/octet-stream', size: 3, fileName: 'blob', createdAt: t.clock.now() }))
    const res = await t.request('GET', `/api/files/${key}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/)
  })

  it('encodes non-ASCII file names', async () => {
    const f = await store(TEXT, 'журнал.txt')
    const res = await t.request('GET', `/api/files/${f.key}`)
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="______.txt"; filename*=UTF-8''${encodeURIComponent('журнал.txt')}`)
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const f = await store(TEXT, 'notes.txt')
    const first = await t.request('GET', `/api/files/${f.key}`)
    const etag = first.headers.get('etag')!
    const again = await t.request('GET', `/api/files/${f.key}`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
  })

  it('answers 404 in the envelope for unknown, malformed and removed keys', async () => {
    const f = await store(TEXT, 'notes.txt')
    await t.deps.files.remove(t.deps.db, [f.key])
    for (const key of ['A'.repeat(43) + '.txt', 'short', '..%2F..%2Fglitchbox.db', f.key]) {
      const res = await t.request('GET', `/api/files/${key}`)
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'file not found' })
    }
  })

  it('is public but rate limited to 30 a minute per client', async () => {
    const f = await store(TEXT, 'notes.txt')
    const statuses: number[] = []
    for (let i = 0; i < 31; i++) statuses.push((await t.request('GET', `/api/files/${f.key}`, { ip: '198.51.100.1' })).status)
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true)
    expect(statuses[30]).toBe(429)
  })
})
