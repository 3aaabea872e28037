import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runBackfill } from '../../src/db/migrate'
import { withdrawnFilesBackfill } from '../../src/files/withdrawn-files'
import { attachments } from '../../src/modules/attachments/attachments.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { b64, PNG, pngDataUrl, WEBM } from '../sdk/sdk-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { plan: 'studio' })
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const bugs = () => `/api/projects/${project.slug}/bugs`
/** The path part of a `file_url` (the test app answers every host). */
const pathOf = (url: string) => new URL(url).pathname
/** Status of an unauthenticated download. */
const download = async (path: string) => (await t.request('GET', path)).status

/** Files a report through the SDK with a screenshot and an attachment, then adds an uploaded attachment and a replay: the paths of all four. */
async function reportWithFiles(title: string): Promise<{ number: number; paths: string[] }> {
  const submit = await t.request('POST', '/api/bugs/submit', {
    apiKey: project.apiKey,
    body: { title, description: 'd', screenshot: pngDataUrl(), attachments: [{ filename: 'log.txt', data: b64('log line') }] },
  })
  expect(submit.status).toBe(201)
  const number = Number(submit.body.data.report_number)
  const upload = new FormData()
  upload.set('file', new File(['crash dump'], 'dump.txt', { type: 'text/plain' }))
  expect((await t.request('POST', `${bugs()}/${number}/attachments`, { token: owner.token, body: upload })).status).toBe(201)
  const replay = new FormData()
  replay.set('bug_report_id', submit.body.data.id)
  replay.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
  const replayRes = await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: replay })
  expect(replayRes.status).toBe(201)
  const report = (await t.deps.db.read((q) => q.select({ key: reports.screenshotKey }).from(reports).where(eq(reports.id, submit.body.data.id))))[0]!
  const listed = (await t.request('GET', `${bugs()}/${number}/attachments`, { token: owner.token })).body.data as { file_url: string }[]
  const paths = [`/api/files/${report.key}`, ...[...listed.map((a) => a.file_url), replayRes.body.data.file_url].map(pathOf)]
  expect(paths).toHaveLength(4)
  return { number, paths }
}

describe('GET /api/files/:key of deleted reports', () => {
  it('serves screenshots, attachments and replays while the report lives, 404 once it is deleted', async () => {
    const gone = await reportWithFiles('Falls through the floor')
    const kept = await reportWithFiles('Music stops')
    for (const p of [...gone.paths, ...kept.paths]) expect(await download(p), p).toBe(200)

    expect((await t.request('DELETE', `${bugs()}/${gone.number}`, { token: owner.token })).status).toBe(200)
    for (const p of gone.paths) {
      const res = await t.request('GET', p)
      expect(res.status, p).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'file not found' })
    }
    for (const p of kept.paths) expect(await download(p), p).toBe(200)
  })

  it('withdraws the files of a bulk delete', async () => {
    const a = await reportWithFiles('Crash A')
    const b = await reportWithFiles('Crash B')
    const res = await t.request('DELETE', `${bugs()}/bulk`, { token: owner.token, body: { bug_numbers: [a.number, b.number] } })
    expect(res.status).toBe(200)
    for (const p of [...a.paths, ...b.paths]) expect(await download(p), p).toBe(404)
  })

  it('withdraws a file whose row is written after its report was deleted (upload racing the delete)', async () => {
    const report = await createReportIn(t, project)
    const number = report.reportNumber
    const stored = await t.deps.files.store(t.deps.db, { data: PNG, fileName: 'late.png', kind: 'attachment', maxBytes: 1 << 20 })
    expect((await t.request('DELETE', `${bugs()}/${number}`, { token: owner.token })).status).toBe(200)
    await t.deps.db.write((q) => q.insert(attachments).values({ id: crypto.randomUUID(), reportId: report.id, projectId: project.id, fileKey: stored.key, fileName: 'late.png', fileSize: PNG.length, createdAt: t.clock.now() }))
    expect(await download(`/api/files/${stored.key}`)).toBe(404)
  })

  it('answers 404 for the files of a deleted project', async () => {
    const { paths } = await reportWithFiles('Boss softlock')
    expect((await t.request('DELETE', `/api/projects/${project.slug}`, { token: owner.token })).status).toBe(200)
    for (const p of paths) expect(await download(p), p).toBe(404)
  })

  it.skipIf(!onSqlite)('withdraws the files of reports deleted before the upgrade (SQLite: migration backfill)', async () => {
    const { number, paths } = await reportWithFiles('Old crash')
    expect((await t.request('DELETE', `${bugs()}/${number}`, { token: owner.token })).status).toBe(200)
    t.sqlite.exec('DELETE FROM withdrawn_files')
    expect(await download(paths[0]!)).toBe(200)
    runBackfill(t.sqlite, withdrawnFilesBackfill)
    for (const p of paths) expect(await download(p), p).toBe(404)
  })
})
