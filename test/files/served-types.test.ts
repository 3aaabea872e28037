// Issue 21 item 8: a player could upload text declared as text/javascript (or text/css, text/xsl) and
// have it served with that type, so `<script src="/api/files/KEY">` injected into the dashboard would
// run on its origin despite the CSP. Whatever a client declares, text is served as
// `text/plain; charset=utf-8` with nosniff, the sandbox CSP and (for anything but plain text) `attachment`;
// these tests go through every route a player or a member uploads through, and rows stored before the fix.
import { sql } from 'drizzle-orm'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { files } from '../../src/files/files.table'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { b64, PNG, sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const SCRIPT = 'document.title = "pwned"'
const RUNNABLE = ['text/javascript', 'text/css', 'text/xsl', 'text/html', 'text/xml', 'text/ecmascript', 'text/javascript; charset=utf-8']

const keyOf = (fileUrl: string) => fileUrl.split('/api/files/')[1]!

async function served(fileUrl: string) {
  const res = await t.request('GET', `/api/files/${keyOf(fileUrl)}`)
  expect(res.status).toBe(200)
  return res
}

function expectInert(res: { headers: Headers; body: unknown }, disposition: 'attachment' | 'inline' = 'attachment') {
  expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
  expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition};`))
}

describe('text uploads are served as text/plain whatever type the client declared', () => {
  it.each(RUNNABLE)('SDK attachment declared %s', async (type) => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'x.js', mime_type: type, data: b64(SCRIPT) } })
    expect(res.status).toBe(201)
    const file = await served(res.body.data.file_url)
    expect(file.body).toBe(SCRIPT)
    expectInert(file)
  })

  it('SDK submit attachments', async () => {
    const { key } = await sdkProject(t)
    const attachments = RUNNABLE.map((type, i) => ({ filename: `${i}.js`, mime_type: type, data: b64(SCRIPT) }))
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Scripts attached', description: 'see files', attachments } })
    expect(res.status).toBe(201)
    const urls = await t.deps.db.read((q) => rowsOf<{ file_key: string }>(q, sql`SELECT file_key FROM attachments`))
    expect(urls).toHaveLength(RUNNABLE.length)
    for (const { file_key } of urls) expectInert(await served(`/api/files/${file_key}`))
  })

  it('team attachments (multipart) declared text/javascript', async () => {
    const { owner, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const form = new FormData()
    form.set('file', new File([SCRIPT], 'exploit.js', { type: 'text/javascript' }))
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`, { token: owner.token, body: form })
    expect(res.status).toBe(201)
    expectInert(await served(res.body.data.file_url))
  })

  it('plain text stays inline, as text/plain; charset=utf-8', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'player.log', mime_type: 'text/plain', data: b64('boot ok') } })
    expectInert(await served(res.body.data.file_url), 'inline')
  })

  it('keeps images, video and JSON under their own types', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const png = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'shot.png', mime_type: 'image/png', data: b64(PNG) } })
    const json = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'save.json', mime_type: 'application/json', data: b64('{"slot":1}') } })
    expect((await served(png.body.data.file_url)).headers.get('content-type')).toBe('image/png')
    expect((await served(json.body.data.file_url)).headers.get('content-type')).toBe('application/json')
  })

  it('refuses script types on image and replay uploads', async () => {
    const { key, project, owner } = await sdkProject(t, 'studio')
    const report = await createReportIn(t, project)
    const replay = new FormData()
    replay.set('bug_report_id', report.id)
    replay.set('file', new File([SCRIPT], 'r.webm', { type: 'text/javascript' }))
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: replay })).status).toBe(400)
    const background = new FormData()
    background.set('file', new File([SCRIPT], 'bg.png', { type: 'text/javascript' }))
    expect((await t.request('POST', `/api/projects/${project.slug}/widget-settings/background`, { token: owner.token, body: background })).status).toBe(400)
    expect((await t.deps.db.read((q) => rowsOf(q, sql`SELECT cast(count(*) AS int) AS n FROM files`)))[0]).toEqual({ n: 0 })
  })
})

describe('files stored before the fix', () => {
  const legacy = async (mimeType: string) => {
    const key = `${'L'.repeat(40)}${mimeType.length}.txt`
    mkdirSync(join(t.dir, 'files', key.slice(0, 2)), { recursive: true })
    writeFileSync(join(t.dir, 'files', key.slice(0, 2), key), SCRIPT)
    await t.deps.db.write((q) => q.insert(files).values({ key, mimeType, size: SCRIPT.length, fileName: 'old.js', createdAt: t.clock.now() }))
    return key
  }

  it.each(['text/javascript', 'text/css', 'text/xsl'])('%s is served as text/plain', async (type) => {
    expectInert(await served(`/api/files/${await legacy(type)}`))
  })

  it.each(['application/javascript', 'application/xslt+xml', 'image/svg+xml', 'application/xhtml+xml'])('%s is served as application/octet-stream', async (type) => {
    const res = await served(`/api/files/${await legacy(type)}`)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/)
  })
})
