// How a native crash reads in the product: an Unreal container's minidump is symbolicated like the
// minidump route's (same title, frames and report), the other threads follow the crashed one in
// their own section (grouping keeps to the crashed thread), and the modules of the crashed stack
// the project has no symbols for are listed in the metadata, with their debug ids and PDB names.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { setProject } from '../sdk/sdk-helpers'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { sqlRows } from '../helpers/sql-rows'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { readMinidump, withMinidump } from '../../src/modules/sentry/minidump.adapter'
import { compress, writeContainer } from '../sentry/unreal/container-writer'
import { testDmp } from './fixture'
import { uploadSymbols } from './symbol-upload'

let t: TestApp
let owner: TestUser
let game: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { plan: 'studio' })
  game = await createProject(t, owner, { name: 'Test App' })
  await setProject(t, game.id, { dsnId: 41 })
})
afterEach(() => t.close())

const CONTEXT = `<?xml version="1.0" encoding="UTF-8"?>
<FGenericCrashContext><RuntimeProperties>
<CrashGUID>UECC-Windows-0123456789ABCDEF</CrashGUID><CrashType>Crash</CrashType>
<ErrorMessage>Unhandled Exception: EXCEPTION_ACCESS_VIOLATION writing address 0x00000000</ErrorMessage>
<CallStack>test_app!UnrealPrintedFrame() [D:\\build\\Game.cpp:12]</CallStack>
<BuildVersion>1.4.2</BuildVersion><UserDescription>It froze on the bridge</UserDescription>
</RuntimeProperties></FGenericCrashContext>`

/** Sends rust-minidump's test.dmp inside an Unreal CrashReportClient container (with its crash context). */
async function sendUnreal() {
  const container = writeContainer([
    { name: 'CrashContext.runtime-xml', bytes: new TextEncoder().encode(CONTEXT) },
    { name: 'UEMinidump.dmp', bytes: testDmp() },
  ])
  const res = await t.app.handle(new Request(`http://localhost/api/41/unreal/${game.apiKey}/`, { method: 'POST', body: compress(container) as Uint8Array<ArrayBuffer> }))
  expect(res.status, await res.clone().text()).toBe(200)
}

/** Sends test.dmp to the minidump route. */
async function sendDump() {
  const form = new FormData()
  form.append('upload_file_minidump', new File([testDmp() as Uint8Array<ArrayBuffer>], 'crash.dmp'))
  const res = await t.app.handle(new Request(`http://localhost/api/41/minidump/?sentry_key=${game.apiKey}`, { method: 'POST', body: form }))
  expect(res.status, await res.clone().text()).toBe(200)
}

type Row = { title: string; description: string; metadata: string; grouping_label: string; occurrence_count: number }
const reports = () => sqlRows<Row>(t, 'SELECT title, description, metadata, grouping_label, occurrence_count FROM reports WHERE project_id = ?', game.id)
const stackOf = (description: string) => description.split('--- Stack Trace ---\n')[1]!.split('\n\n')[0]!.split('\n')

const KNOWN_FRAMES = [
  expect.stringMatching(/^ {2}at `anonymous namespace'::CrashFunction \[c:\\test_app\.cc : 58\] \(test_app\.exe\+0x/),
  expect.stringMatching(/^ {2}at main \[c:\\test_app\.cc : 65\]/),
  expect.stringMatching(/^ {2}at __tmainCRTStartup \[f:\\sp\\vctools\\crt_bld\\self_x86\\crt\\src\\crt0\.c : 327\]/),
  expect.stringMatching(/^ {2}at BaseProcessStart \(kernel32\.dll\+0x/),
]

const TEST_APP_MISSING = { module: 'test_app.exe', debug_id: '5A9832E5287241C1838ED98914E9B7FF1', debug_file: 'c:\\test_app.pdb' }
const KERNEL32_MISSING = { module: 'kernel32.dll', debug_id: 'BCE8785C57B44245A669896B6A19B9542', debug_file: 'kernel32.pdb' }

describe('Unreal crash reports with a minidump', () => {
  it('are titled, described and grouped by the symbolicated frames, as the minidump route files the same dump', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await sendUnreal()
    const [report] = await reports()
    expect(report!.title).toBe("EXCEPTION_ACCESS_VIOLATION_WRITE in `anonymous namespace'::CrashFunction")
    expect(stackOf(report!.description).slice(0, 4)).toEqual(KNOWN_FRAMES)
    expect(report!.description).toContain("Player's description: It froze on the bridge")
    expect(report!.description).not.toContain('UnrealPrintedFrame')
    const metadata = JSON.parse(report!.metadata)
    expect(metadata.minidump).toMatchObject({ symbolicated: true, missing_symbols: [] })
    expect(metadata.unreal.crash_guid).toBe('UECC-Windows-0123456789ABCDEF')
    await sendDump()
    expect((await reports()).map((r) => r.occurrence_count)).toEqual([2])
  })

  it("keep Unreal's printed call stack when nothing symbolicates, and name the missing symbols of every module on the dump's stack", async () => {
    await sendUnreal()
    const [report] = await reports()
    expect(report!.title).toBe('Unhandled Exception: EXCEPTION_ACCESS_VIOLATION writing address 0x00000000')
    expect(stackOf(report!.description)).toEqual(['test_app!UnrealPrintedFrame() [D:\\build\\Game.cpp:12]'])
    expect(JSON.parse(report!.metadata).minidump).toMatchObject({
      symbolicated: false,
      missing_symbols: [TEST_APP_MISSING, KERNEL32_MISSING],
    })
  })
})

describe('the other threads and the missing symbols of a minidump', () => {
  it('lists the other threads after the crashed one, each under its own heading, without grouping on them', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz', 'kernel32.sym.gz')
    await sendDump()
    const [report] = await reports()
    const [, other] = report!.description.split('\n\n--- Other Threads ---\n')
    expect(other!.split('\n').slice(0, 2)).toEqual(['Thread 4544', expect.stringMatching(/^ {2}at ntdll\.dll\+0x/)])
    expect(stackOf(report!.description).slice(0, 4)).toEqual(KNOWN_FRAMES)
    expect(stackOf(report!.description).join('\n')).not.toContain('Thread')
    expect(report!.grouping_label).toContain('CrashFunction')
    expect(report!.grouping_label).not.toContain('ntdll')
  })

  it('names each module of the crashed stack the project has no symbols for, with its debug id and PDB', async () => {
    await uploadSymbols(t, owner, game.slug, 'test_app.sym.gz')
    await sendDump()
    const [report] = await reports()
    expect(stackOf(report!.description)[0]).toEqual(KNOWN_FRAMES[0])
    expect(JSON.parse(report!.metadata).minidump).toMatchObject({
      symbolicated: true,
      missing_symbols: [KERNEL32_MISSING],
    })
  })

  it('names every module of the walked stack, the crashing one first, when nothing symbolicates', async () => {
    await sendDump()
    const [report] = await reports()
    expect(report!.title).toBe('EXCEPTION_ACCESS_VIOLATION_WRITE at test_app.exe+0x429e')
    expect(JSON.parse(report!.metadata).minidump.missing_symbols).toEqual([TEST_APP_MISSING, KERNEL32_MISSING])
  })
})

describe('bounds', () => {
  it('keeps the other threads within the description and the missing symbols within the metadata cap', () => {
    const dump = readMinidump(testDmp())
    const frames = Array.from({ length: 64 }, (_, i) => ({ function: `Worker::Loop${i}`, file: 'c:\\engine\\worker.cpp', line: i, module: 'engine.dll', address: `0x${i.toString(16)}` }))
    const symbols = {
      frames: [{ function: 'CrashFunction', module: 'test_app.exe', address: '0x429e' }],
      otherThreads: Array.from({ length: 32 }, (_, id) => ({ id, frames })),
      missingSymbols: Array.from({ length: 500 }, (_, i) => ({ module: `plugin${i}.dll`, debugId: `${i}`.padStart(33, 'A') })),
    }
    const s = withMinidump({ project: { id: game.id } as never, kind: 'auto', title: '', description: '', client: 'test' }, dump, symbols)
    expect(s.description.length).toBeLessThan(30_000)
    expect(s.description).toMatch(/\n\n\(\d+ more threads not listed\)$/)
    expect(Buffer.byteLength(JSON.stringify(s.metadata))).toBeLessThanOrEqual(16 * 1024)
    expect((s.metadata as { minidump: { missing_symbols: unknown[] } }).minidump.missing_symbols).toHaveLength(20)
  })
})
