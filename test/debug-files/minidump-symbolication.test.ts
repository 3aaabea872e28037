// Symbolication at ingest: Breakpad symbols uploaded to a project (sentry-cli's chunk and assemble
// calls) turn a minidump's crashed thread into named frames with files and lines, from the known
// answers of rust-minidump's test.dmp; the same dump sent to another project, which uploaded none,
// is filed with module and offset, although it names the same debug ids.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setProject } from '../sdk/sdk-helpers'
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
  t = createTestApp()
  owner = await createUser(t, { plan: 'studio' })
  game = await createProject(t, owner, { name: 'Test App' })
  other = await createProject(t, owner, { name: 'Other App' })
  await setProject(t, game.id, { dsnId: 41 })
  await setProject(t, other.id, { dsnId: 42 })
})
afterEach(() => t.close())

async function sendDump(project: TestProject) {
  const form = new FormData()
  form.append('upload_file_minidump', new File([testDmp() as Uint8Array<ArrayBuffer>], 'crash.dmp'))
  const res = await t.app.handle(new Request(`http://localhost/api/${project.id === game.id ? 41 : 42}/minidump/?sentry_key=${project.apiKey}`, { method: 'POST', body: form }))
  expect(res.status, await res.clone().text()).toBe(200)
  return (await sqlRows(t, 'SELECT title, description, metadata, grouping_label FROM reports WHERE project_id = ?', project.id))[0]!
}

/** The four frames Breakpad's minidump2.stackwalk.out gives test.dmp's crashed thread, first in the description's stack trace. */
function expectKnownFrames(description: string) {
  const stack = description.split('--- Stack Trace ---\n')[1]!.split('\n')
  expect(stack.slice(0, 4)).toEqual([
    expect.stringMatching(/^ {2}at `anonymous namespace'::CrashFunction \[c:\\test_app\.cc : 58\] \(test_app\.exe\+0x/),
    expect.stringMatching(/^ {2}at main \[c:\\test_app\.cc : 65\]/),
    expect.stringMatching(/^ {2}at __tmainCRTStartup \[f:\\sp\\vctools\\crt_bld\\self_x86\\crt\\src\\crt0\.c : 327\]/),
    expect.stringMatching(/^ {2}at BaseProcessStart \(kernel32\.dll\+0x/),
  ])
}

/** The dump as sentry-native sends it: an envelope whose event names no exception, with the dump as its `event.minidump` attachment. */
async function sendEnvelope(project: TestProject) {
  const dump = testDmp()
  const eventId = 'a'.repeat(32)
  const head = [
    JSON.stringify({ event_id: eventId, dsn: `http://${project.apiKey}@localhost/41` }),
    JSON.stringify({ type: 'event' }),
    JSON.stringify({ event_id: eventId, platform: 'native', level: 'fatal', release: 'test_app@1.0' }),
    JSON.stringify({ type: 'attachment', length: dump.length, filename: 'crash.dmp', attachment_type: 'event.minidump' }),
  ].join('\n')
  const body = Buffer.concat([Buffer.from(`${head}\n`), dump, Buffer.from('\n')])
  const res = await t.app.handle(new Request(`http://localhost/api/41/envelope/?sentry_key=${project.apiKey}`, { method: 'POST', body }))
  expect(res.status, await res.clone().text()).toBe(200)
  return (await sqlRows(t, 'SELECT title, description, metadata FROM reports WHERE project_id = ?', project.id))[0]!
}

describe('minidumps symbolicated with the project’s uploaded symbols', () => {
  it('names the same frames for a dump sent as an envelope’s event.minidump (sentry-native)', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    const report = await sendEnvelope(game)
    expect(report.title).toBe("EXCEPTION_ACCESS_VIOLATION_WRITE in `anonymous namespace'::CrashFunction")
    expectKnownFrames(report.description)
    expect(JSON.parse(report.metadata).minidump.symbolicated).toBe(true)
  })

  it('names the crashed thread’s frames (CrashFunction, main, __tmainCRTStartup, BaseProcessStart) and counts the files used', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    const report = await sendDump(game)
    // Breakpad's minidump2.stackwalk.out: test_app.exe!`anonymous namespace'::CrashFunction [test_app.cc : 58 + 0x7].
    expect(report.title).toBe("EXCEPTION_ACCESS_VIOLATION_WRITE in `anonymous namespace'::CrashFunction")
    expectKnownFrames(report.description)
    expect(report.description).not.toContain('Not symbolicated')
    expect(JSON.parse(report.metadata).minidump.symbolicated).toBe(true)
    const files = (await t.request('GET', `/api/projects/${game.slug}/debug-files`, { token: owner.token })).body.data as { name: string; crashes_symbolicated: number }[]
    expect(Object.fromEntries(files.map((f) => [f.name, f.crashes_symbolicated]))).toEqual({ 'test_app.pdb': 1, 'kernel32.pdb': 1 })
  })

  it('never uses one project’s symbols for another project’s crash, though the dump names the same debug ids', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    const report = await sendDump(other)
    expect(report.title).toBe('EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e')
    expect(report.description).toContain('Not symbolicated')
    expect(JSON.parse(report.metadata).minidump.symbolicated).toBe(false)
    const files = (await t.request('GET', `/api/projects/${game.slug}/debug-files`, { token: owner.token })).body.data as { crashes_symbolicated: number }[]
    expect(files.map((f) => f.crashes_symbolicated)).toEqual([0, 0])
  })
})
