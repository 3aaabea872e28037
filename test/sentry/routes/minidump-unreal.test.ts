import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { sqlRows } from '../../helpers/sql-rows'
import { CAPTURE_KEY, capturedProject, FIXTURES, post } from './sentry-routes-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const dump = (name: string) => readFileSync(join(FIXTURES, 'minidumps', name))
const unreal = (name: string) => readFileSync(join(FIXTURES, 'unreal', name))

/** The multipart body crash reporters send: the dump, optionally Sentry's event JSON and other files. */
function minidumpForm(bytes: Uint8Array, o: { sentry?: object; files?: [string, string, string][] } = {}) {
  const form = new FormData()
  form.append('upload_file_minidump', new File([bytes as Uint8Array<ArrayBuffer>], 'crash.dmp', { type: 'application/octet-stream' }))
  if (o.sentry) form.append('sentry', JSON.stringify(o.sentry))
  for (const [field, name, text] of o.files ?? []) form.append(field, new File([text], name, { type: 'text/plain' }))
  return form
}

describe('POST /api/{dsn_id}/minidump/', () => {
  it('files a Windows crash titled from its exception, grouped by the crashing module and offset, with the dump kept and the OS and CPU filled', async () => {
    const { owner, project } = await capturedProject(t)
    const res = await post(t, `/api/42/minidump/?sentry_key=${CAPTURE_KEY}`, minidumpForm(dump('test.dmp'), { files: [['log', 'game.log', 'Loaded level 3']] }))
    expect(res.status).toBe(200)
    expect(res.text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    const [r] = (await sqlRows(t, 'SELECT * FROM reports'))
    expect(r).toMatchObject({ title: 'EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e', category: 'crash', source: 'system', error_type: 'EXCEPTION_ACCESS_VIOLATION_WRITE', grouping_label: 'EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e' })
    expect(r!.os_info).toMatch(/^Windows 5\.1\.2600/)
    expect(r!.device_info).toMatch(/^x86/)
    const metadata = JSON.parse(r!.metadata)
    expect(metadata.minidump).toMatchObject({ crash_site: 'test_app.exe+0x429e', symbolicated: false, module_count: 13 })
    expect(metadata.minidump.modules[0]).toMatchObject({ name: 'test_app.exe' })
    expect((await sqlRows(t, 'SELECT file_name, mime_type FROM attachments ORDER BY file_name'))).toEqual([
      { file_name: 'crash.dmp', mime_type: 'application/x-minidump' },
      { file_name: 'game.log', mime_type: 'text/plain' },
    ])
    // The dump downloads as a file, never shown inline.
    const occurrence = (await t.request('GET', `/api/projects/${project.slug}/bugs/1/occurrences`, { token: owner.token })).body.data.occurrences[0]
    const file = await t.app.handle(new Request(occurrence.attachments.find((a: any) => a.file_name === 'crash.dmp').file_url.replace('http://glitchbox.test', 'http://localhost')))
    expect(file.headers.get('content-type')).toBe('application/octet-stream')
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/)
  })

  it('groups the same crash sent twice, and takes release, user and tags from the sentry event field', async () => {
    await capturedProject(t)
    const sentry = { event_id: 'd'.repeat(32), release: '2.0.1', user: { id: 'steam-1' }, tags: { map: 'caves' }, sdk: { name: 'sentry.native', version: '0.7.0' } }
    expect((await post(t, `/api/42/minidump/?sentry_key=${CAPTURE_KEY}`, minidumpForm(dump('linux-mini.dmp'), { sentry }))).text).toBe('dddddddd-dddd-dddd-dddd-dddddddddddd')
    expect((await post(t, `/api/42/minidump/?sentry_key=${CAPTURE_KEY}`, minidumpForm(dump('linux-mini.dmp')))).status).toBe(200)
    expect((await sqlRows(t, 'SELECT title, game_version, player_id, occurrence_count FROM reports'))).toEqual([{ title: expect.stringMatching(/^SIGSEGV.* at crash\+0x1d72$/), game_version: '2.0.1', player_id: 'steam-1', occurrence_count: 2 }])
    expect((await sqlRows(t, 'SELECT client FROM report_occurrences ORDER BY seq'))).toEqual([{ client: 'sentry.native 0.7.0' }, { client: 'minidump upload' }])
  })

  it('takes a gzip-compressed multipart body', async () => {
    await capturedProject(t)
    const form = minidumpForm(dump('crash_macos.dmp'))
    const req = new Request('http://x/', { method: 'POST', body: form })
    const type = req.headers.get('content-type')!
    const body = gzipSync(Buffer.from(await req.arrayBuffer()))
    const res = await post(t, `/api/42/minidump/?sentry_key=${CAPTURE_KEY}`, body, { 'content-type': type, 'content-encoding': 'gzip' })
    expect([res.status, res.text]).toEqual([200, expect.any(String)])
    expect((await sqlRows(t, 'SELECT title FROM reports'))[0]!.title).toMatch(/^EXC_BAD_ACCESS/)
  })

  it.each([
    ['no dump field', () => new FormData(), 400],
    ['a damaged dump', () => minidumpForm(dump('invalid-range.dmp')), 400],
    ['not a dump at all', () => minidumpForm(new TextEncoder().encode('hello')), 400],
    ['a body that is no form', () => 'plain text', 400],
  ])('answers %s with 400 {"detail"} and stores nothing', async (_n, body, status) => {
    await capturedProject(t)
    const res = await post(t, `/api/42/minidump/?sentry_key=${CAPTURE_KEY}`, body() as BodyInit)
    expect([res.status, res.json]).toEqual([status, { detail: expect.any(String) }])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n + (await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })

  it('answers 401 for a wrong key before reading the body', async () => {
    await capturedProject(t)
    expect((await post(t, '/api/42/minidump/?sentry_key=sk_live_nope', minidumpForm(dump('test.dmp')))).json).toEqual({ detail: 'invalid API key' })
  })
})

describe('POST /api/{dsn_id}/unreal/{api_key}/', () => {
  it("files Unreal's CrashReportClient upload: the error message, the call stack, build, platform, the player's words, minidump and log attached", async () => {
    await capturedProject(t)
    const res = await post(t, `/api/42/unreal/${CAPTURE_KEY}/?AppID=CrashReporter&UploadType=crashreports&UserID=login|epic|machine`, unreal('unreal_crash'), { 'content-type': 'application/octet-stream' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(res.text).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/)
    const [r] = (await sqlRows(t, 'SELECT * FROM reports'))
    expect(r).toMatchObject({ category: 'crash', source: 'system', game_version: expect.stringContaining('4.20') })
    expect(r!.title).toMatch(/^Assertion failed/)
    expect(r!.description).toContain('--- Stack Trace ---')
    expect(r!.grouping_label).toMatch(/ at /)
    expect(JSON.parse(r!.metadata).unreal).toMatchObject({ crash_guid: expect.stringMatching(/^UE4CC-Windows-/) })
    expect((await sqlRows(t, 'SELECT mime_type FROM attachments ORDER BY mime_type')).map((a) => a.mime_type)).toEqual(['application/x-minidump', 'text/plain'])
    // The same crash again is an occurrence of it.
    await post(t, `/api/42/unreal/${CAPTURE_KEY}/`, unreal('unreal_crash'))
    expect((await sqlRows(t, 'SELECT occurrence_count FROM reports'))).toEqual([{ occurrence_count: 2 }])
  })

  it("files the Mac reporter's upload with the player's description and the Apple crash report", async () => {
    await capturedProject(t)
    expect((await post(t, `/api/42/unreal/${CAPTURE_KEY}/`, unreal('unreal_crash_apple'))).status).toBe(200)
    const [r] = (await sqlRows(t, 'SELECT * FROM reports'))
    expect(r!.description).toContain("Player's description: asdsadasd")
    expect(r!.error_type).toBe('SEGV_MAPERR')
  })

  it.each([
    ['a wrong key in the path', `/api/42/unreal/sk_live_nope/`, unreal('unreal_crash'), 401],
    ['a body that is no zlib stream', `/api/42/unreal/${CAPTURE_KEY}/`, new TextEncoder().encode('not a crash'), 400],
    ['a truncated upload', `/api/42/unreal/${CAPTURE_KEY}/`, unreal('unreal_crash').subarray(0, 500), 400],
  ])('answers %s with %i and stores nothing', async (_n, path, body, status) => {
    await capturedProject(t)
    const res = await post(t, path, body)
    expect([res.status, res.json]).toEqual([status, { detail: expect.any(String) }])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n + (await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })
})
