// Symbols uploaded after a crash: the `.sym`'s assemble queues one job, which symbolicates the
// project's stored dumps of the last 30 days that name its debug id again and rewrites their
// reports (title, stack trace, grouping key) in place: number, votes and comments stay, a title a
// person edited stays, and the next filing of the same crash stacks onto the report. Older dumps,
// other projects' dumps, and a report whose new key another report holds already are not merged.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { setProject } from '../sdk/sdk-helpers'
import { putSettings } from '../public/public-fixtures'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { sqlRows } from '../helpers/sql-rows'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { testDmp } from './fixture'
import { uploadSymbols } from './symbol-upload'

let t: TestApp
let owner: TestUser
let game: TestProject
let other: TestProject
beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
  owner = await createUser(t, { plan: 'studio' })
  game = await createProject(t, owner, { name: 'Test App' })
  other = await createProject(t, owner, { name: 'Other App' })
  await setProject(t, game.id, { dsnId: 41 })
  await setProject(t, other.id, { dsnId: 42 })
})
afterEach(() => t.close())

const UNSYMBOLICATED = 'EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e'
const SYMBOLICATED = "EXCEPTION_ACCESS_VIOLATION_WRITE in `anonymous namespace'::CrashFunction"

/** Files rust-minidump's test.dmp through the minidump route, as Crashpad would. */
async function sendDump(project: TestProject, event?: Record<string, unknown>) {
  const form = new FormData()
  form.append('upload_file_minidump', new File([testDmp() as Uint8Array<ArrayBuffer>], 'crash.dmp'))
  if (event) form.append('sentry', JSON.stringify(event))
  const res = await t.app.handle(new Request(`http://localhost/api/${project === game ? 41 : 42}/minidump/?sentry_key=${project.apiKey}`, { method: 'POST', body: form }))
  expect(res.status, await res.clone().text()).toBe(200)
}

interface StoredReport {
  report_number: number
  title: string
  description: string
  fingerprint: string
  upvotes: number
  occurrence_count: number
  metadata: string
}
const reportsOf = (project: TestProject) =>
  sqlRows<StoredReport>(t, 'SELECT report_number, title, description, fingerprint, upvotes, occurrence_count, metadata FROM reports WHERE project_id = ? ORDER BY report_number', project.id)
const api = (method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${game.slug}${path}`, { token: owner.token, body })
/** Runs the queued jobs: one re-symbolication per `.sym` uploaded (`uploads`), each done. */
const symbolicateStoredDumps = async (uploads = 2) => {
  await t.runner.drain()
  expect(await sqlRows(t, "SELECT status FROM jobs WHERE kind = 'debug-files.resymbolicate'")).toEqual(Array(uploads).fill({ status: 'done' }))
}

describe('symbols uploaded after a crash', () => {
  it('rewrite its report in place (title, frames, grouping) keeping number, votes and comments; the next filing stacks onto it', async () => {
    await sendDump(game)
    const [filed] = await reportsOf(game)
    expect(filed!.title).toBe(UNSYMBOLICATED)
    await putSettings(t, owner, game, 'tracker-settings', { enabled: true, allow_upvotes: true, publish: 'all' })
    expect((await api('PATCH', '/bugs/1', { published: true })).status).toBe(200)
    const voted = await t.request('POST', `/api/tracker/${game.slug}/bugs/1/vote`, { body: { player_id: 'p1' } })
    expect(voted.body.data, JSON.stringify(voted.body)).toMatchObject({ upvotes: 1 })
    expect((await api('POST', '/bugs/1/comments', { body: 'Happens on every save' })).status).toBe(201)
    await sendDump(other)

    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    // Queued by the uploads, not yet run: the report is as filed.
    expect((await reportsOf(game))[0]!.title).toBe(UNSYMBOLICATED)
    await symbolicateStoredDumps()

    const [report] = await reportsOf(game)
    expect(report).toMatchObject({ report_number: 1, title: SYMBOLICATED, upvotes: 1, occurrence_count: 1 })
    expect(report!.fingerprint).not.toBe(filed!.fingerprint)
    const stack = report!.description.split('--- Stack Trace ---\n')[1]!.split('\n')
    expect(stack.slice(0, 4)).toEqual([
      expect.stringMatching(/^ {2}at `anonymous namespace'::CrashFunction \[c:\\test_app\.cc : 58\]/),
      expect.stringMatching(/^ {2}at main \[c:\\test_app\.cc : 65\]/),
      expect.stringMatching(/^ {2}at __tmainCRTStartup \[f:\\sp\\vctools\\crt_bld\\self_x86\\crt\\src\\crt0\.c : 327\]/),
      expect.stringMatching(/^ {2}at BaseProcessStart \(kernel32\.dll\+0x/),
    ])
    expect(report!.description).not.toContain('Not symbolicated')
    expect(JSON.parse(filed!.metadata).minidump.missing_symbols.map((m: { module: string }) => m.module)).toContain('test_app.exe')
    expect(JSON.parse(report!.metadata).minidump).toMatchObject({ symbolicated: true, missing_symbols: [] })
    const comments = (await api('GET', '/bugs/1/comments')).body.data as { body: string }[]
    expect(comments.map((c) => c.body)).toEqual(['Happens on every save'])
    const activity = (await api('GET', '/bugs/1/activity')).body.data as { action: string; new_value: string | null; actor_id: string | null }[]
    // Two uploads, two jobs: the first walked the dump with both files, the second found it done and did not walk it again.
    const files = (await api('GET', '/debug-files')).body.data as { name: string; crashes_symbolicated: number }[]
    expect(Object.fromEntries(files.map((f) => [f.name, f.crashes_symbolicated]))).toEqual({ 'test_app.pdb': 1, 'kernel32.pdb': 1 })
    expect(activity.filter((a) => a.action === 'symbolicated')).toEqual([expect.objectContaining({ new_value: expect.stringMatching(/^(test_app|kernel32)\.pdb$/), actor_id: null })])

    // The same crash again, now symbolicated at ingest: it stacks onto report 1.
    await sendDump(game)
    expect((await reportsOf(game)).map((r) => [r.report_number, r.occurrence_count])).toEqual([[1, 2]])
    // The other project's dump names the same debug ids, but these symbols are the game's own.
    expect((await reportsOf(other)).map((r) => r.title)).toEqual([UNSYMBOLICATED])
  })

  it('leave dumps older than 30 days as they were filed', async () => {
    const now = t.clock.now()
    t.clock.set(now.getTime() - 31 * DAY)
    await sendDump(game)
    t.clock.set(now)
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await symbolicateStoredDumps()
    expect((await reportsOf(game)).map((r) => r.title)).toEqual([UNSYMBOLICATED])
  })

  it('keep a title a person edited, and still move the report to the symbolicated grouping', async () => {
    await sendDump(game)
    expect((await api('PATCH', '/bugs/1', { title: 'Crash when saving' })).status).toBe(200)
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await symbolicateStoredDumps()
    const [report] = await reportsOf(game)
    expect(report!.title).toBe('Crash when saving')
    expect(report!.description).toContain("at `anonymous namespace'::CrashFunction [c:\\test_app.cc : 58]")
    await sendDump(game)
    expect((await reportsOf(game)).map((r) => [r.report_number, r.occurrence_count])).toEqual([[1, 2]])
  })

  it('never merge: when a report filed since holds the symbolicated key, the old one keeps its own', async () => {
    await sendDump(game)
    const [filed] = await reportsOf(game)
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    // Filed before the job runs: symbolicated at ingest, a report of its own.
    await sendDump(game)
    await symbolicateStoredDumps()
    const [old, symbolicated] = await reportsOf(game)
    expect(old).toMatchObject({ report_number: 1, title: SYMBOLICATED, fingerprint: filed!.fingerprint, occurrence_count: 1 })
    expect(symbolicated).toMatchObject({ report_number: 2, title: SYMBOLICATED, occurrence_count: 1 })
    expect(symbolicated!.fingerprint).not.toBe(filed!.fingerprint)
  })

  it('keep the text the crash’s event brought (its message and breadcrumbs) around the new stack trace', async () => {
    const event = { message: 'Saving slot 3', breadcrumbs: [{ timestamp: 1767614400, category: 'ui', message: 'clicked Save' }] }
    await sendDump(game, event)
    expect((await reportsOf(game))[0]!.description).toMatch(/^EXCEPTION_ACCESS_VIOLATION_WRITE at test_app\.exe\+0x429e\n\nNot symbolicated: .*\n\nSaving slot 3\n\n--- Stack Trace ---\n {2}at test_app\.exe\+0x429e \[in app\]\n\n--- Recent Logs ---\n.*ui: clicked Save$/)
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await symbolicateStoredDumps()
    // Word for word what ingest writes for the same crash and event with the symbols: the next filing's own copy.
    await sendDump(game, event)
    const [report] = await reportsOf(game)
    const [, second] = await sqlRows<{ description: string }>(t, 'SELECT description FROM report_occurrences WHERE project_id = ? ORDER BY seq', game.id)
    expect(report!.description).toBe(second!.description)
    expect(report!.description).toMatch(/^EXCEPTION_ACCESS_VIOLATION_WRITE in `anonymous namespace'::CrashFunction\n\nSaving slot 3\n\n--- Stack Trace ---\n {2}at `anonymous/)
    expect(report!.description.match(/clicked Save/g)).toHaveLength(1)
  })

  it('skip a stored dump that cannot be read, with a warning, and finish the job', async () => {
    await sendDump(game)
    const [dump] = await sqlRows<{ file_key: string }>(t, "SELECT file_key FROM attachments WHERE project_id = ? AND mime_type = 'application/x-minidump'", game.id)
    writeFileSync(join(t.dir, 'files', dump!.file_key.slice(0, 2), dump!.file_key), 'not a minidump any more')
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await symbolicateStoredDumps()
    expect((await reportsOf(game)).map((r) => r.title)).toEqual([UNSYMBOLICATED])
    expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'a stored minidump could not be read for re-symbolication; skipped', file_key: dump!.file_key }))
  })

  it('name more frames when a later upload brings the symbols of another module on the stack', async () => {
    await sendDump(game)
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz')
    await symbolicateStoredDumps(1)
    const [first] = await reportsOf(game)
    expect(first!.title).toBe(SYMBOLICATED)
    expect(first!.description).toMatch(/\n {2}at kernel32\.dll\+0x/)
    t.clock.advance(60_000)
    await uploadSymbols(t, owner, game.slug, 'kernel32.sym.gz')
    await symbolicateStoredDumps()
    const [report] = await reportsOf(game)
    expect(report!.description).toMatch(/\n {2}at BaseProcessStart \(kernel32\.dll\+0x/)
    expect(report!.fingerprint).toBe(first!.fingerprint)
    const activity = (await api('GET', '/bugs/1/activity')).body.data as { action: string; new_value: string | null }[]
    expect(activity.filter((a) => a.action === 'symbolicated').map((a) => a.new_value)).toEqual(['test_app.pdb', 'kernel32.pdb'])
  })
})
