// Stack walks of public minidumps with their public symbols. Expected frames come from the source
// projects: Breakpad's src/processor/testdata/minidump2.stackwalk.out and rust-minidump's
// minidump-stackwalk snapshot human-symbols for test.dmp; Breakpad's resolver tests
// (basic_source_line_resolver_unittest.cc, TestLoadAndResolveNewInlines) for linux_inline; the
// Linux crash programs' call chains (glibc's fortify path, main calling the crashing function)
// for the others.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { StackFrame } from '../../src/modules/debug-files/debug-files.types'
import { walkStack } from '../../src/modules/debug-files/stack-walker'
import { buildSymIndexSync } from '../../src/modules/debug-files/sym-index.builder'
import { loadSymIndex } from '../../src/modules/debug-files/sym-index.reader'
import { debugFixture, symbolsOf, testDmp } from './fixture'

/** A frame as minidump_stackwalk prints it: `CrashFunction [test_app.cc : 58]`, `kernel32.dll!BaseProcessStart`, or `module + offset`. */
function printed(f: StackFrame): string {
  if (!f.function) return `${f.module} + ${f.offset}`
  if (!f.file) return `${f.module}!${f.function}`
  return `${f.function} [${f.file.split(/[\\/]/).pop()} : ${f.line}]`
}

describe('Windows x86 test.dmp with test_app.sym and kernel32.sym (STACK WIN)', async () => {
  const result = await walkStack(testDmp(), await symbolsOf('test_app.sym.gz', 'kernel32.sym.gz'))
  const crashed = result.threads[0]!

  it('walks the crashing thread to the frames minidump_stackwalk prints', () => {
    expect(result.error).toBeNull()
    expect(crashed).toMatchObject({ id: 3060, crashed: true, stopped: null })
    expect(crashed.frames.map(printed)).toEqual([
      "`anonymous namespace'::CrashFunction [test_app.cc : 58]",
      'main [test_app.cc : 65]',
      '__tmainCRTStartup [crt0.c : 327]',
      'kernel32.dll!BaseProcessStart',
    ])
  })

  it('finds the callers by call frame info at the return addresses the snapshots give', () => {
    expect(crashed.frames.map((f) => [f.address, f.trust])).toEqual([
      ['0x40429e', 'context'],
      ['0x404200', 'cfi'],
      ['0x4053ec', 'cfi'],
      ['0x7c816fd7', 'cfi'],
    ])
    expect(crashed.frames[3]).toMatchObject({ module: 'kernel32.dll', offset: '0x16fd7', debugId: 'BCE8785C57B44245A669896B6A19B9542' })
  })

  it('walks the other thread too, after the crashed one', () => {
    // minidump2.dump.out: two threads, 0xbf4 (3060, crashed) and 0x11c0 (4544).
    expect(result.threads.map((t) => [t.id, t.crashed])).toEqual([[3060, true], [4544, false]])
    expect(result.threads[1]!.frames[0]).toMatchObject({ trust: 'context' })
    expect(result.threads[1]!.frames.length).toBeGreaterThan(1)
  })

  it('without kernel32.sym, names the last frame by module and offset', async () => {
    const without = await walkStack(testDmp(), await symbolsOf('test_app.sym.gz'))
    expect(printed(without.threads[0]!.frames[3]!)).toBe('kernel32.dll + 0x16fd7')
  })
})

describe('Linux amd64 dumps with their symbols (STACK CFI)', () => {
  it('linux_null_read_av: the crashing function, main and libc by CFI', async () => {
    const result = await walkStack(debugFixture('linux_null_read_av.dmp'), await symbolsOf('null_read_av.sym.gz', 'libc-2.13.so.sym.gz'))
    const frames = result.threads[0]!.frames
    expect(frames.slice(0, 3).map((f) => [printed(f), f.trust])).toEqual([
      ['crash() [null_read_av.cc : 18]', 'context'],
      ['main [null_read_av.cc : 27]', 'cfi'],
      ['libc-2.13.so!__libc_start_main', 'cfi'],
    ])
  })

  it('linux_overflow: from raise in libc back through abort and the fortify check to main', async () => {
    const result = await walkStack(debugFixture('linux_overflow.dmp'), await symbolsOf('overflow.sym.gz', 'libc-2.13.so.sym.gz'))
    const frames = result.threads[0]!.frames
    expect(frames.every((f, i) => f.trust === (i === 0 ? 'context' : 'cfi'))).toBe(true)
    const names = frames.map((f) => f.function)
    expect(names.slice(0, 2)).toEqual(['gsignal', 'abort'])
    expect(names.slice(3)).toEqual(['__fortify_fail', '__chk_fail', 'overflow(char const*)', 'main', '__libc_start_main', null])
    expect(frames[6]).toMatchObject({ module: 'overflow', file: expect.stringMatching(/overflow\.cc$/) })
  })

  it('the same dump without symbols still walks, by frame pointer and stack scan, with module offsets', async () => {
    const result = await walkStack(debugFixture('linux_overflow.dmp'), () => null)
    const frames = result.threads[0]!.frames
    expect(frames[0]).toMatchObject({ module: 'libc-2.13.so', offset: '0x32475', function: null, trust: 'context' })
    expect(frames.length).toBeGreaterThan(1)
    expect(frames.slice(1).every((f) => f.trust === 'scan' || f.trust === 'frame_pointer')).toBe(true)
    // A scan keeps only words that point into a module.
    expect(frames.every((f) => f.module !== null)).toBe(true)
  })

  it('linux_inline: the crash address gives main with the three calls inlined into it', async () => {
    const result = await walkStack(debugFixture('linux_inline.dmp'), await symbolsOf('linux_inline.new.sym'))
    const top = result.threads[0]!.frames[0]!
    expect(top).toMatchObject({ module: 'linux_inline', offset: '0x161b6', function: 'main', file: 'a.cpp', line: 42, trust: 'context' })
    expect(top.inlined).toEqual([
      { function: 'func()', file: 'linux_inline.cpp', line: 27 },
      { function: 'bar()', file: 'c.cpp', line: 32 },
      { function: 'foo()', file: 'b.cpp', line: 39 },
    ])
  })
})

describe('stack scanning without symbols', () => {
  it('linux-mini.dmp: the frames rust-minidump finds by scanning, return address for return address', async () => {
    // rust-minidump minidump-stackwalk/tests/snapshots/test_minidump_stackwalk__linux_human.snap (rip of each frame).
    const dump = new Uint8Array(readFileSync(new URL('../sentry/fixtures/minidumps/linux-mini.dmp', import.meta.url)))
    const frames = (await walkStack(dump, () => null)).threads[0]!.frames
    expect(frames.map((f) => f.address)).toEqual([
      '0x401d72', '0x7f514025002e', '0x7f51401e4800', '0x7f5140cebac6', '0x401ec0', '0x414c30', '0x7f514017d830', '0x401c70',
      '0x401dc0', '0x401c70', '0x414ca0', '0x401dc0', '0x401de9', '0x400040', '0x401dc0',
    ])
    expect(frames.map((f) => f.trust)).toEqual(['context', ...Array.from({ length: 14 }, () => 'scan')])
    expect(frames[1]).toMatchObject({ module: 'libc-2.23.so', offset: '0xf302e' })
  })
})

describe('a walk never fails its caller', () => {
  it('resolves for every one of 300 randomly damaged copies of a dump', async () => {
    const symbols = await symbolsOf('test_app.sym.gz')
    const original = testDmp()
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff)
    for (let round = 0; round < 300; round++) {
      const damaged = original.slice()
      for (let i = 0; i < 16; i++) damaged[random() % damaged.length] = random() & 0xff
      const result = await walkStack(damaged, symbols, { maxFrames: 64, maxThreads: 8, scanWords: 4096, timeMs: 500 })
      expect(result.error === null || result.threads.length === 0).toBe(true)
    }
  })

  it('answers an error, not an exception, for bytes that are not a minidump or are cut short', async () => {
    expect(await walkStack(new TextEncoder().encode('not a dump, '.repeat(10)), () => null)).toEqual({ threads: [], error: expect.stringContaining('not a minidump') })
    const cut = await walkStack(testDmp().subarray(0, 3000), () => null)
    expect(cut.threads).toEqual([])
    expect(cut.error).toEqual(expect.any(String))
  })

  it('treats a symbols source that throws or rejects as no symbols', async () => {
    const result = await walkStack(testDmp(), (id) => (id.startsWith('5A98') ? Promise.reject(new Error('storage down')) : (() => { throw new Error('boom') })()))
    expect(result.error).toBeNull()
    expect(result.threads[0]!.frames[0]).toMatchObject({ module: 'test_app.exe', offset: '0x429e', function: null })
  })

  it('stops at the frame limit and says so', async () => {
    const result = await walkStack(testDmp(), await symbolsOf('test_app.sym.gz'), { maxFrames: 2, maxThreads: 1, scanWords: 1000, timeMs: 10_000 })
    expect(result.threads).toHaveLength(1)
    expect(result.threads[0]!.frames).toHaveLength(2)
    expect(result.threads[0]!.stopped).toBe('frame limit (2)')
  })
})

describe('hostile CFI rules', () => {
  const hostile = (rules: string) =>
    loadSymIndex(
      // null_read_av's debug id, with rules of our own for the crashing function (offset 0x2170).
      buildSymIndexSync(`MODULE Linux x86_64 7B7D1968FF0D47AE4366E9C3A7E1B6750 null_read_av\nFUNC 2100 100 0 crash()\nSTACK CFI INIT 2100 100 ${rules}\n`).index,
    )

  for (const [what, rules] of [
    ['divide by zero', '.cfa: $rsp 0 / .ra: .cfa -8 + ^'],
    ['refer to themselves', '.cfa: .cfa 8 + .ra: .cfa ^'],
    ['do not move up the stack', '.cfa: $rsp .ra: .cfa ^'],
    ['run past the token limit', `.cfa: $rsp ${'8 + '.repeat(200)}.ra: .cfa -8 + ^`],
    ['read memory the dump lacks', '.cfa: $rsp 0x100000000 + .ra: .cfa ^'],
  ]) {
    it(`that ${what} are not used: the walk goes on by other means`, async () => {
      const index = hostile(rules!)
      const result = await walkStack(debugFixture('linux_null_read_av.dmp'), (id) => (id === index.module.debugId ? index : null))
      const frames = result.threads[0]!.frames
      expect(frames[0]).toMatchObject({ function: 'crash()', trust: 'context' })
      expect(frames.length).toBeGreaterThan(1)
      expect(frames[1]!.trust).not.toBe('cfi')
    })
  }
})
