// Big submit and attachment bodies stream in: base64 files are decoded to disk as they arrive and
// must behave exactly like small inline ones, and nothing may stay in the data dir when a request fails.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { PLANS } from '../../src/modules/auth/plans'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { b64, PNG, sdkProject } from './sdk-helpers'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const MB = 1024 * 1024
const bug = (o: Record<string, unknown> = {}) => ({ title: 'Trees flicker in the forest', description: 'When the camera turns.', ...o })

/** `n` bytes that sniff as a PNG (the magic number, then varied bytes). */
function png(n: number): Buffer {
  const b = Buffer.alloc(n)
  for (let i = 0; i < n; i++) b[i] = (i * 31 + (i >> 9)) & 0xff
  b.set(PNG)
  return b
}
const text = (n: number) => Buffer.from('player log line\n'.repeat(Math.ceil(n / 16)).slice(0, n))

/** Every file under the data dir's temp and files folders. */
function dataDirFiles(): string[] {
  const list = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(join(dir, e.name)) : [join(dir, e.name)]))
  return [...list(join(t.dir, 'tmp')), ...list(join(t.dir, 'files'))]
}

/** Waits until the data dir holds exactly `n` stored files and no temp file (temp files go after the response). */
async function dataDirHolds(n: number) {
  const settled = () => dataDirFiles().length === n && readdirSync(join(t.dir, 'tmp')).length === 0
  for (let i = 0; i < 100 && !settled(); i++) await Bun.sleep(10)
  expect(readdirSync(join(t.dir, 'tmp'))).toEqual([])
  expect(dataDirFiles()).toHaveLength(n)
  expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(n)
}

async function stored(key: string): Promise<Buffer> {
  const file = await t.deps.files.open(t.deps.db, key)
  return Buffer.from(await file!.body.arrayBuffer())
}

/** Posts a body as a chunked stream (no Content-Length); `pulled()` says how much of it was read. */
async function postChunked(path: string, body: Uint8Array, headers: Record<string, string>, chunk = 256 * 1024) {
  let at = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (at >= body.length) return c.close()
      c.enqueue(body.slice(at, at + chunk))
      at += chunk
    },
  })
  const res = await t.app.handle(
    new Request(`http://localhost${path}`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.9.9.9', ...headers }, duplex: 'half' } as RequestInit),
  )
  return { status: res.status, body: await res.json(), pulled: Math.min(at, body.length) }
}

// t.request sends no Content-Length, so every body over 64 KB below takes the streaming path.
describe('POST /api/bugs/submit with a big body', () => {
  it.each([
    ['a data-URL screenshot', (shot: Buffer) => `data:image/png;base64,${b64(shot)}`],
    ['a bare base64 screenshot', (shot: Buffer) => b64(shot)],
    ['a URL-safe screenshot with line breaks', (shot: Buffer) => shot.toString('base64url').replace(/(.{76})/g, '$1\n')],
  ])('stores %s byte for byte: 201, nothing left in the temp folder', async (_name, encode) => {
    const { key } = await sdkProject(t)
    const shot = png(3 * MB + 1)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ screenshot: encode(shot) }) })
    expect(res.status).toBe(201)
    const [r] = await sqlRows(t, 'SELECT screenshot_key FROM reports WHERE id = ?', res.body.data.id)
    expect(r!.screenshot_key).toMatch(/\.png$/)
    expect(Buffer.compare(await stored(r!.screenshot_key), shot)).toBe(0)
    expect(await sqlRows(t, 'SELECT mime_type, size FROM files')).toEqual([{ mime_type: 'image/png', size: shot.length }])
    await dataDirHolds(1)
  })

  it('stores attachments with the screenshot, charges the quota, keeps an empty screenshot as none', async () => {
    const { key, owner } = await sdkProject(t)
    const log = text(400_000)
    const save = Buffer.from(JSON.stringify({ slot: 1, blob: 'x'.repeat(200_000) }))
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: key,
      body: bug({ screenshot: '', attachments: [{ filename: 'player.log', mime_type: 'text/plain', data: b64(log) }, { filename: 'save.json', data: `data:application/json;base64,${b64(save)}` }] }),
    })
    expect(res.status).toBe(201)
    expect((await sqlRows(t, 'SELECT screenshot_key FROM reports'))[0]!.screenshot_key).toBeNull()
    const files = await sqlRows(t, 'SELECT a.file_name, a.mime_type, a.file_size, a.file_key FROM attachments a ORDER BY a.file_name')
    expect(files.map(({ file_key: _k, ...f }) => f)).toEqual([
      { file_name: 'player.log', mime_type: 'text/plain', file_size: log.length },
      { file_name: 'save.json', mime_type: 'application/json', file_size: save.length },
    ])
    expect(Buffer.compare(await stored(files[0]!.file_key), log)).toBe(0)
    expect(Buffer.compare(await stored(files[1]!.file_key), save)).toBe(0)
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!.uploadBytesUsed).toBe(log.length + save.length)
    await dataDirHolds(2)
  })

  it('takes a small body with a Content-Length the fast way, with the same result', async () => {
    const { key } = await sdkProject(t)
    const json = JSON.stringify(bug({ screenshot: `data:image/png;base64,${b64(PNG)}` }))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: json, headers: { 'content-type': 'application/json', 'content-length': String(json.length) } })
    expect(res.status).toBe(201)
    await dataDirHolds(1)
  })

  it('reads the body as JSON whatever its Content-Type says (a form is malformed JSON)', async () => {
    const { key } = await sdkProject(t)
    const json = JSON.stringify(bug())
    const labelled = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: json, headers: { 'content-type': 'text/plain', 'content-length': String(json.length) } })
    expect(labelled.status).toBe(201)
    const form = new FormData()
    form.set('title', 'A form')
    form.set('description', 'x')
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: form })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/malformed/)
  })

  it('documents both routes with their JSON body schema', async () => {
    const spec = (await t.request('GET', '/openapi.json')).body
    const submit = spec.paths['/api/bugs/submit'].post.requestBody.content
    expect(Object.keys(submit)).toEqual(['application/json'])
    expect(JSON.stringify(submit)).toContain('screenshot')
    expect(Object.keys(spec.paths['/api/bugs/{id}/attachments'].post.requestBody.content)).toEqual(['application/json'])
  })

  it.each([
    ['screenshot not base64', () => bug({ screenshot: `${b64(png(200_000))}#` }), 'screenshot: not valid base64'],
    ['a data URL that is not base64', () => bug({ screenshot: `data:image/png,${b64(png(200_000))}` }), 'screenshot: not valid base64'],
    ['screenshot of whitespace only', () => bug({ screenshot: ' '.repeat(100_000) }), 'screenshot: file is empty'],
    ['screenshot not an image', () => bug({ screenshot: b64(text(200_000)) }), 'screenshot: file type not allowed: must be an image'],
    ['screenshot declared as another type', () => bug({ screenshot: `data:image/jpeg;base64,${b64(png(200_000))}` }), 'screenshot: file content does not match its declared type image/jpeg'],
    ['screenshot over 10 MB decoded', () => bug({ screenshot: b64(png(10 * MB + 1)) }), 'screenshot: file is too large (max 10 MB)'],
    ['the second attachment not base64', () => bug({ attachments: [{ filename: 'a.txt', data: b64(text(100_000)) }, { filename: 'b.txt', data: 'a$b' }] }), 'attachments.1: not valid base64'],
    ['an attachment of a disallowed type', () => bug({ screenshot: b64(png(100_000)), attachments: [{ filename: 'a.zip', data: b64(Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), Buffer.alloc(100_000, 0xfe)])) }] }), 'attachments.0: file type not allowed: must be text, image, video or JSON'],
    ['a missing title', () => ({ description: 'x', screenshot: b64(png(200_000)) }), 'title is required'],
    ['more than 10 attachments', () => bug({ attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, data: b64(text(10_000)) })) }), /^attachments: /],
  ])('answers 400 for %s and keeps no file', async (_name, body, message) => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: body() })
    expect(res.status).toBe(400)
    if (typeof message === 'string') expect(res.body).toEqual({ ok: false, error: message })
    else expect(res.body.error).toMatch(message)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(0)
    await dataDirHolds(0)
  })

  it('answers 400 for malformed JSON after a big base64 value and keeps no file', async () => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: `{"title":"x","description":"y","screenshot":"${b64(png(300_000))}"`, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/malformed/)
    await dataDirHolds(0)
  })

  it('answers 401 to a wrong key in the header without reading the body', async () => {
    await sdkProject(t)
    const body = Buffer.from(JSON.stringify(bug({ screenshot: b64(png(5 * MB)) })))
    for (const apiKey of ['nope', `sk_live_${'x'.repeat(40)}`]) {
      const res = await postChunked('/api/bugs/submit', body, { 'x-api-key': apiKey })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ ok: false, error: 'invalid API key' })
      expect(res.pulled).toBeLessThanOrEqual(256 * 1024)
    }
    await dataDirHolds(0)
  })

  it('takes the key from the body too; a wrong one there is 401 and its spilled file is removed', async () => {
    const { key } = await sdkProject(t)
    const wrong = await t.request('POST', '/api/bugs/submit', { body: bug({ api_key: `sk_live_${'y'.repeat(40)}`, screenshot: b64(png(MB)) }) })
    expect(wrong.status).toBe(401)
    await dataDirHolds(0)
    const right = await t.request('POST', '/api/bugs/submit', { body: bug({ api_key: key, screenshot: b64(png(MB)) }) })
    expect(right.status).toBe(201)
    await dataDirHolds(1)
  })

  it('answers 400 to a chunked body past 20 MB and stops reading it', async () => {
    const { key } = await sdkProject(t)
    const body = Buffer.from(JSON.stringify(bug({ screenshot: b64(png(9 * MB)), attachments: [{ filename: 'a.png', data: b64(png(9 * MB)) }] })))
    const res = await postChunked('/api/bugs/submit', body, { 'x-api-key': key }, MB)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'request body too large (max 20 MB)' })
    expect(res.pulled).toBeLessThan(body.length)
    await dataDirHolds(0)
  })

  it('answers 400 to megabytes of JSON besides the files, after reading about 2 MB of it', async () => {
    const { key } = await sdkProject(t)
    // 19 MB of numbers cost ~1.2 s of parsing before the schema refused them; nothing of it is a file.
    const body = Buffer.from(`{"title":"x","description":"y","metadata":[${'1,'.repeat(9_500_000)}1]}`)
    const res = await postChunked('/api/bugs/submit', body, { 'x-api-key': key })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'the JSON besides the files is too large (max 2 MB)' })
    expect(res.pulled).toBeLessThan(3 * MB)
    await dataDirHolds(0)
  })

  it('still takes long text fields, \\u-escaped, beside a 5 MB screenshot', async () => {
    const { key } = await sdkProject(t)
    // What a serializer that escapes every non-ASCII character sends: 6 bytes a character.
    const russian = 'ошибка '.repeat(7_000).slice(0, 49_000)
    const escaped = (s: string) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    const fields = ['description', 'steps_to_reproduce', 'expected_behavior', 'actual_behavior'].map((f) => `"${f}":${escaped(russian)}`).join(',')
    const shot = b64(png(5 * MB))
    const body = Buffer.from(`{"title":"Crash","screenshot":"${shot}",${fields}}`)
    // About 1 MB of JSON besides the screenshot: half the cap.
    expect(body.length - shot.length).toBeGreaterThan(0.95 * MB)
    const res = await postChunked('/api/bugs/submit', body, { 'x-api-key': key })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    expect((await sqlRows(t, 'SELECT description FROM reports'))[0]!.description).toBe(russian)
  })

  it('answers 403 and keeps no file when the upload quota is reached', async () => {
    const { key, owner } = await sdkProject(t)
    await t.deps.db.write((q) => q.update(accounts).set({ uploadBytesUsed: PLANS.free.limits.uploadBytes - 5 }).where(eq(accounts.id, owner.account.id)))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ screenshot: b64(png(MB)) }) })
    expect(res.status).toBe(403)
    await dataDirHolds(0)
  })

  it('answers 500 and keeps no file when the database write fails', async () => {
    const { key } = await sdkProject(t)
    await sqlRun(t, 'DROP TABLE attachments')
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ screenshot: b64(png(MB)), attachments: [{ filename: 'a.txt', data: b64(text(MB)) }] }) })
    expect(res.status).toBe(500)
    await dataDirHolds(0)
  })

  it('handles concurrent big submits, each with its own file', async () => {
    const { key } = await sdkProject(t)
    const shots = [1, 2, 3, 4].map((k) => png(MB + k))
    const results = await Promise.all(shots.map((s, k) => t.request('POST', '/api/bugs/submit', { apiKey: key, body: bug({ title: `Bug ${k}`, screenshot: b64(s) }) })))
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201])
    for (const [k, r] of results.entries()) {
      const [row] = await sqlRows(t, 'SELECT screenshot_key FROM reports WHERE id = ?', r.body.data.id)
      expect(Buffer.compare(await stored(row!.screenshot_key), shots[k]!)).toBe(0)
    }
    await dataDirHolds(4)
  })
})

describe('POST /api/bugs/:id/attachments with a big body', () => {
  it('stores the file byte for byte: 201', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const log = text(2 * MB)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'player.log', data: `data:text/plain;base64,${b64(log)}` } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ file_name: 'player.log', file_size: log.length, mime_type: 'text/plain' })
    const [a] = await sqlRows(t, 'SELECT file_key FROM attachments')
    expect(Buffer.compare(await stored(a!.file_key), log)).toBe(0)
    await dataDirHolds(1)
  })

  it.each([
    ['not base64', () => ({ filename: 'a.txt', data: `${b64(text(100_000))}%` }), 'data: not valid base64'],
    ['over 10 MB decoded', () => ({ filename: 'a.txt', data: b64(text(10 * MB + 1)) }), 'data: file is too large (max 10 MB)'],
    ['a disallowed type', () => ({ filename: 'a.bin', data: b64(Buffer.alloc(100_000, 0xfe)) }), 'data: file type not allowed: must be text, image, video or JSON'],
    ['no filename', () => ({ data: b64(text(100_000)) }), 'filename is required'],
  ])('answers 400 for %s and keeps no file', async (_name, body, message) => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: body() })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: message })
    await dataDirHolds(0)
  })

  it('answers 401 to a wrong key without reading, 404 to another project’s report, keeping no file', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    const foreign = await createReportIn(t, other.project)
    const body = Buffer.from(JSON.stringify({ filename: 'a.txt', data: b64(text(3 * MB)) }))
    const denied = await postChunked(`/api/bugs/${foreign.id}/attachments`, body, { 'x-api-key': 'sk_live_wrong' })
    expect(denied.status).toBe(401)
    expect(denied.pulled).toBeLessThanOrEqual(256 * 1024)
    const missing = await postChunked(`/api/bugs/${foreign.id}/attachments`, body, { 'x-api-key': key })
    expect(missing.status).toBe(404)
    await dataDirHolds(0)
  })

  it('answers 400 to a chunked body past 14 MB', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await postChunked(`/api/bugs/${report.id}/attachments`, Buffer.from(JSON.stringify({ filename: 'a.txt', data: b64(text(11 * MB)) })), { 'x-api-key': key }, MB)
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('request body too large (max 14 MB)')
    await dataDirHolds(0)
  })
})
