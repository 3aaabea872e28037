import { describe, expect, it } from 'vitest'
import { SymError } from '../../src/modules/debug-files/sym.errors'
import { buildSymIndex } from '../../src/modules/debug-files/sym-index.builder'
import { loadSymIndex } from '../../src/modules/debug-files/sym-index.reader'
import { debugFixture } from './fixture'

const indexOf = async (text: string | Uint8Array) => loadSymIndex((await buildSymIndex(text)).index)

describe('symbol index lookups', () => {
  it('gives Breakpad resolver answers for inline frames, newer and older form', async () => {
    // basic_source_line_resolver_unittest.cc: TestLoadAndResolveNewInlines / OldInlines at 0x161b6.
    const current = await indexOf(debugFixture('linux_inline.new.sym'))
    expect(current.lookup(0x161b6)).toEqual({
      function: 'main', functionAddress: 0x15b30, file: 'a.cpp', line: 42,
      inlined: [
        { function: 'func()', file: 'linux_inline.cpp', line: 27 },
        { function: 'bar()', file: 'c.cpp', line: 32 },
        { function: 'foo()', file: 'b.cpp', line: 39 },
      ],
    })
    const old = await indexOf(debugFixture('linux_inline.old.sym'))
    expect(old.lookup(0x161b6)).toMatchObject({ function: 'main', file: 'linux_inline.cpp', line: 42 })
    expect(old.lookup(0x161b6)!.inlined.map((f) => [f.function, f.file, f.line])).toEqual([
      ['func()', 'linux_inline.cpp', 27],
      ['bar()', 'linux_inline.cpp', 32],
      ['foo()', 'linux_inline.cpp', 39],
    ])
    // Outside every inline range the function's own line record answers.
    expect(current.lookup(0x15b30)).toMatchObject({ function: 'main', line: 41, inlined: [] })
  })

  it('finds function, file and line in an 800 KB .sym, and PUBLIC symbols where no FUNC is', async () => {
    const app = await indexOf(debugFixture('test_app.sym.gz'))
    expect(app.module).toMatchObject({ os: 'windows', arch: 'x86', debugId: '5A9832E5287241C1838ED98914E9B7FF1', name: 'test_app.pdb' })
    expect(app.lookup(0x429e)).toMatchObject({ function: "`anonymous namespace'::CrashFunction", file: 'c:\\test_app.cc', line: 58 })
    expect(app.lookup(0x41ff)).toMatchObject({ function: 'main', line: 65 })
    // rust-minidump's breakpad-symbols documentation: test_app.pdb at 0x1010 is vswprintf.
    expect(app.lookup(0x1010)?.function).toBe('vswprintf')
    const kernel32 = await indexOf(debugFixture('kernel32.sym.gz'))
    // minidump2.stackwalk.out: kernel32.dll!BaseProcessStart + 0x23 for offset 0x16fd7.
    expect(kernel32.lookup(0x16fd6)).toEqual({ function: 'BaseProcessStart', functionAddress: 0x16fd7 - 0x23, file: null, line: null, inlined: [] })
  })

  it('answers null outside every function, and a PUBLIC only past the last FUNC before the address', async () => {
    const index = await indexOf('MODULE Linux x86_64 ABC0 a.so\nFUNC 1000 10 0 f\n1000 10 7 0\nPUBLIC 800 0 before\nPUBLIC 2000 0 after\n')
    expect(index.lookup(0x900)).toMatchObject({ function: 'before' })
    expect(index.lookup(0x1005)).toMatchObject({ function: 'f', file: null, line: 7 })
    expect(index.lookup(0x1800)).toBeNull()
    expect(index.lookup(0x2004)).toMatchObject({ function: 'after' })
    expect(index.lookup(0x10)).toBeNull()
  })

  it('gives the CFI rules in force: the INIT rules with the changes up to the address', async () => {
    const libc = await indexOf(debugFixture('libc-2.13.so.sym.gz'))
    // STACK CFI INIT 1eaf0 90 .cfa: $rsp 16 + .ra: .cfa -8 + ^ / STACK CFI 1eaf6 .cfa: $rsp 24 +
    expect(libc.cfiAt(0x1eaf5)).toEqual(new Map([['.cfa', '$rsp 16 +'], ['.ra', '.cfa -8 + ^']]))
    expect(libc.cfiAt(0x1eaf6)).toEqual(new Map([['.cfa', '$rsp 24 +'], ['.ra', '.cfa -8 + ^']]))
    expect(libc.cfiAt(0x1eb80 + 2)).toBeNull()
  })

  it('gives STACK WIN frame data before FPO data', async () => {
    const index = await indexOf('MODULE windows x86 ABC0 a.pdb\nSTACK WIN 0 1000 20 0 0 4 8 10 0 0 1\nSTACK WIN 4 1010 8 0 0 0 4 0 0 1 $eip $esp ^ =\n')
    expect(index.winAt(0x1004)).toEqual({ type: 0, paramSize: 4, savedRegisterSize: 8, localSize: 0x10, program: null, allocatesBasePointer: true })
    expect(index.winAt(0x1012)).toMatchObject({ type: 4, program: '$eip $esp ^ =' })
    expect(index.winAt(0x1020)).toBeNull()
  })

  it('sorts records a .sym lists out of order', async () => {
    const index = await indexOf('MODULE Linux x86_64 ABC0 a.so\nFUNC 3000 10 0 c\n3008 8 2 0\n3000 8 1 0\nFUNC 1000 10 0 a\nPUBLIC 5000 0 z\nPUBLIC 4000 0 y\n')
    expect([0x1000, 0x3000, 0x3009, 0x4001, 0x5001].map((a) => [index.lookup(a)?.function, index.lookup(a)?.line])).toEqual([
      ['a', null], ['c', 1], ['c', 2], ['y', null], ['z', null],
    ])
  })
})

describe('index bytes', () => {
  it('builds the same index from a stream of chunks as from the bytes, and loads it from any offset', async () => {
    const bytes = debugFixture('null_read_av.sym.gz')
    const whole = (await buildSymIndex(bytes)).index
    const stream = new Blob([new Uint8Array(bytes)]).stream()
    const streamed = (await buildSymIndex(stream)).index
    expect(streamed).toEqual(whole)
    // Stored beside other data, the index may start at an odd offset: it is still read.
    const shifted = new Uint8Array(whole.length + 1)
    shifted.set(whole, 1)
    expect(loadSymIndex(shifted.subarray(1)).lookup(0x2170)).toMatchObject({ function: 'crash()', line: 18 })
  })

  it('is far smaller than the .sym', async () => {
    const sym = debugFixture('test_app.sym.gz')
    const { index } = await buildSymIndex(sym)
    expect(index.length).toBeLessThan(sym.length * 0.6)
  })

  it('refuses bytes that are not an index with SymError', () => {
    expect(() => loadSymIndex(new Uint8Array(10))).toThrow(SymError)
    expect(() => loadSymIndex(new TextEncoder().encode('MODULE Linux x86_64 ABC0 a.so\n'.repeat(10)))).toThrow(/not a symbol index/)
  })

  it('answers lookups over a damaged index without throwing', async () => {
    const { index } = await buildSymIndex(debugFixture('linux_inline.new.sym'))
    let seed = 7
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff)
    for (let round = 0; round < 200; round++) {
      const damaged = index.slice()
      for (let i = 0; i < 8; i++) damaged[100 + (random() % (damaged.length - 100))] = random() & 0xff
      let loaded
      try {
        loaded = loadSymIndex(damaged)
      } catch (err) {
        expect(err).toBeInstanceOf(SymError)
        continue
      }
      for (const offset of [0, 0x15b30, 0x161b6, 0x161f7, 0xffffffff]) {
        loaded.lookup(offset)
        loaded.cfiAt(offset)
        loaded.winAt(offset)
      }
    }
  })
})
