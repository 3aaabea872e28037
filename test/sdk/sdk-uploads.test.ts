import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { PLANS } from '../../src/modules/auth/plans'
import { updateSettings } from '../../src/modules/settings/settings.service'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { b64, PNG, sdkProject, setProject, WEBM } from './sdk-helpers'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('POST /api/bugs/:id/attachments', () => {
  const log = { filename: 'player.log', mime_type: 'text/plain', data: b64('boot ok\ncrash\n') }

  it('attaches a base64 file to a report of the project: 201 with the attachment', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: log })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ id: expect.any(String), file_url: expect.stringMatching(/^http:\/\/glitchbox\.test\/api\/files\/.+\.txt$/), file_name: 'player.log', file_size: 14, mime_type: 'text/plain', created_at: t.clock.now().toISOString() })
    expect(await sqlRows(t, 'SELECT report_id, file_name FROM attachments')).toEqual([{ report_id: report.id, file_name: 'player.log' }])
    expect(await sqlRows(t, "SELECT actor_id, new_value FROM activity WHERE action = 'attached'")).toEqual([{ actor_id: null, new_value: 'player.log' }])
  })

  it('answers 404 for a report of another project, a deleted report or an unknown id', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    const foreign = await createReportIn(t, other.project)
    expect((await t.request('POST', `/api/bugs/${foreign.id}/attachments`, { apiKey: key, body: log })).status).toBe(404)
    expect((await t.request('POST', '/api/bugs/not-a-report/attachments', { apiKey: key, body: log })).status).toBe(404)
    const deleted = await createReportIn(t, other.project)
    await sqlRun(t, 'UPDATE reports SET deleted_at = 1 WHERE id = ?', deleted.id)
    expect((await t.request('POST', `/api/bugs/${deleted.id}/attachments`, { apiKey: other.key, body: log })).status).toBe(404)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })

  it.each([
    ['missing data', { filename: 'a.txt' }, /data/],
    ['missing filename', { data: b64('x') }, /filename/],
    ['a disallowed type', { filename: 'a.zip', data: b64(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe])) }, /file type not allowed/],
    ['a declared type that does not match', { filename: 'a.png', mime_type: 'image/png', data: b64('plain text') }, /declared type/],
  ])('answers 400 for %s', async (_n, body, message) => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(message)
  })

  it('answers 400 past 10 MB decoded', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: { filename: 'big.txt', data: b64('a'.repeat(10 * 1024 * 1024 + 1)) } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/too large/)
  })

  it('keeps at most 10 attachments per report (400 after)', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    for (let i = 0; i < 10; i++) expect((await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: log })).status).toBe(201)
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: log })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/at most 10/)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(10)
  })

  it('answers 403 and keeps no file when the upload quota is reached', async () => {
    const { key, project, owner } = await sdkProject(t)
    const report = await createReportIn(t, project)
    await t.deps.db.write((q) => q.update(accounts).set({ uploadBytesUsed: PLANS.free.limits.uploadBytes }).where(eq(accounts.id, owner.account.id)))
    const res = await t.request('POST', `/api/bugs/${report.id}/attachments`, { apiKey: key, body: log })
    expect(res.status).toBe(403)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })
})

describe('GET /api/bugs/settings', () => {
  it('answers the project capture settings and the default widget theme (free plans always get it)', async () => {
    const { key, project } = await sdkProject(t)
    await setProject(t, project.id, { screenshotCapture: false, captureWarnings: true })
    const res = await t.request('GET', '/api/bugs/settings', { apiKey: key })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({
      screenshot_capture: false,
      session_capture: false,
      auto_file_errors: true,
      capture_editor_errors: false,
      capture_warnings: true,
      widget_theme: { primary_color: '#2E5BFF', background_color: '#FFFFFF', text_color: '#1A1A1A', position: 'bottom-right', mode: 'light', button_text: 'Report a bug', background_image_url: '' },
    })
  })

  it('answers the project widget theme on pro', async () => {
    const { key, project, owner } = await sdkProject(t, 'pro')
    await updateSettings(t.deps, 'widget', { project, actorId: owner.user.id, patch: { theme: { primary_color: '#FF0000', mode: 'dark' }, button_text: 'Feedback' } })
    const res = await t.request('GET', '/api/bugs/settings', { apiKey: key })
    expect(res.body.data.widget_theme).toMatchObject({ primary_color: '#FF0000', mode: 'dark', background_color: '#FFFFFF', button_text: 'Feedback' })
  })

  it.each([
    ['free', true, false],
    ['pro', true, false],
    ['studio', true, true],
    ['studio', false, false],
  ] as const)('reports session_capture on %s with the setting %s as %s', async (plan, setting, expected) => {
    const { key, project } = await sdkProject(t, plan)
    await setProject(t, project.id, { sessionCapture: setting })
    expect((await t.request('GET', '/api/bugs/settings', { apiKey: key })).body.data.session_capture).toBe(expected)
  })

  it('answers 401 without a valid key', async () => {
    expect((await t.request('GET', '/api/bugs/settings')).status).toBe(401)
  })
})

describe('POST /api/perf/snapshot', () => {
  it('stores a sample tied to a report of the project', async () => {
    const { key, project } = await sdkProject(t)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', '/api/perf/snapshot', { apiKey: key, body: { bug_report_id: report.id, fps: 30, memory_used_mb: 1024.5 } })
    expect(res.status).toBe(201)
    expect(await sqlRows(t, 'SELECT id, report_id, project_id, fps, memory_used_mb, gpu_usage, custom_metrics FROM perf_snapshots')).toEqual([
      { id: res.body.data.id, report_id: report.id, project_id: project.id, fps: 30, memory_used_mb: 1024.5, gpu_usage: null, custom_metrics: null },
    ])
  })

  it.each([
    ['fps as a string', { fps: 'fast' }, /fps/],
    ['draw_calls as a boolean', { draw_calls: true }, /draw_calls/],
    ['custom_metrics as a number', { custom_metrics: 5 }, /custom_metrics/],
    ['custom_metrics over 16 KB', { custom_metrics: 'x'.repeat(17_000) }, /custom_metrics/],
  ])('answers 400 for %s', async (_n, body, message) => {
    const { key } = await sdkProject(t)
    const res = await t.request('POST', '/api/perf/snapshot', { apiKey: key, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(message)
  })

  it('answers 404 for a bug_report_id outside the project', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    const foreign = await createReportIn(t, other.project)
    expect((await t.request('POST', '/api/perf/snapshot', { apiKey: key, body: { bug_report_id: foreign.id, fps: 1 } })).status).toBe(404)
    expect((await t.request('POST', '/api/perf/snapshot', { apiKey: key, body: { bug_report_id: 'nope', fps: 1 } })).status).toBe(404)
  })

  it('answers 401 without a valid key', async () => {
    expect((await t.request('POST', '/api/perf/snapshot', { body: { fps: 1 } })).status).toBe(401)
  })

  it('allows 120 snapshots per minute per client IP', async () => {
    const { key } = await sdkProject(t)
    for (let i = 0; i < 120; i++) expect((await t.request('POST', '/api/perf/snapshot', { apiKey: key, ip: '198.51.100.9', body: { fps: i } })).status).toBe(201)
    expect((await t.request('POST', '/api/perf/snapshot', { apiKey: key, ip: '198.51.100.9', body: { fps: 1 } })).status).toBe(429)
  })
})

describe('POST /api/session-replays', () => {
  const form = (reportId: string | null, file: File | null, extra: Record<string, string> = {}) => {
    const f = new FormData()
    if (reportId !== null) f.set('bug_report_id', reportId)
    if (file) f.set('file', file)
    for (const [k, v] of Object.entries(extra)) f.set(k, v)
    return f
  }
  const webm = () => new File([WEBM], 'replay.webm', { type: 'video/webm' })

  it('stores a replay on studio: 201 {id, file_url}, charges the upload quota, keeps a non-JSON metadata string', async () => {
    const { key, project, owner } = await sdkProject(t, 'studio')
    const report = await createReportIn(t, project)
    const res = await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, webm(), { metadata: 'level=3', duration_sec: '12.5' }) })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ id: expect.any(String), file_url: expect.stringMatching(/\.webm$/) })
    expect(await sqlRows(t, 'SELECT report_id, duration_sec, metadata, file_size FROM session_replays')).toEqual([{ report_id: report.id, duration_sec: 12.5, metadata: '"level=3"', file_size: WEBM.length }])
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!.uploadBytesUsed).toBe(WEBM.length)
  })

  it('accepts MP4 and GIF by their bytes', async () => {
    const { key, project } = await sdkProject(t, 'studio')
    const report = await createReportIn(t, project)
    const mp4 = new Uint8Array([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x6d, 0x70, 0x34, 0x32, 0, 0, 0, 0])
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00')
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, new File([mp4], 'r.mp4')) })).status).toBe(201)
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, new File([gif], 'r.gif')) })).status).toBe(201)
  })

  it.each(['free', 'pro'] as const)('answers 403 on %s and stores nothing', async (plan) => {
    const { key, project } = await sdkProject(t, plan)
    const report = await createReportIn(t, project)
    const res = await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, webm()) })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/this account does not have session replays/)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })

  it('answers 400 for a missing file, a missing bug_report_id or a file that is not a video/GIF', async () => {
    const { key, project } = await sdkProject(t, 'studio')
    const report = await createReportIn(t, project)
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, null) })).status).toBe(400)
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: form(null, webm()) })).status).toBe(400)
    const png = await t.request('POST', '/api/session-replays', { apiKey: key, body: form(report.id, new File([PNG], 'shot.png', { type: 'image/png' })) })
    expect(png.status).toBe(400)
    expect(png.body.error).toMatch(/WebM, MP4 or GIF/)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM files'))[0]!.n).toBe(0)
  })

  it('answers 404 for a report of another project', async () => {
    const { key } = await sdkProject(t, 'studio')
    const other = await sdkProject(t, 'studio')
    const foreign = await createReportIn(t, other.project)
    expect((await t.request('POST', '/api/session-replays', { apiKey: key, body: form(foreign.id, webm()) })).status).toBe(404)
  })
})
