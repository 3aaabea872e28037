import { describe, expect, it } from 'vitest'
import { parseSym } from '../../src/modules/debug-files/sym.parser'
import { readSym } from '../../src/modules/debug-files/sym.reader'
import { MAX_LINE_BYTES } from '../../src/modules/debug-files/sym-lines'
import type { SymRecord } from '../../src/modules/debug-files/sym.types'
import { debugFixture } from './fixture'

const SAMPLE = [
  'MODULE windows x86 5a9832e5287241c1838ed98914e9b7ff1 test app.pdb',
  'INFO CODE_ID 45D35F6C2d000 test_app.exe',
  'INFO GENERATOR dump_syms 1.0',
  'FILE 1 c:\\src\\test app.cc',
  'INLINE_ORIGIN 0 operator new',
  'FUNC m 1000 20 8 Foo::bar(int, char const*)',
  'INLINE 0 12 1 0 1004 4 1010 2',
  '1000 10 11 1',
  '1010 10 12 1',
  'PUBLIC m 2000 4 _start',
  'STACK CFI INIT 1000 20 .cfa: $rsp 8 + .ra: .cfa -8 + ^',
  'STACK CFI 1004 .cfa: $rsp 16 + $rbp: .cfa -16 + ^',
  'STACK WIN 4 1000 20 3 0 8 0 4 0 1 $T0 $ebp = $eip $T0 4 + ^ =',
  'STACK WIN 0 2000 10 1 0 4 8 0 0 0 1',
].join('\n')

describe('parseSym', () => {
  const sym = parseSym(SAMPLE)

  it('reads every record kind with names that hold spaces', () => {
    expect(sym.module).toEqual({ kind: 'module', os: 'windows', arch: 'x86', debugId: '5A9832E5287241C1838ED98914E9B7FF1', name: 'test app.pdb' })
    expect(sym.codeId).toEqual({ kind: 'codeId', codeId: '45D35F6C2d000', codeFile: 'test_app.exe' })
    expect(sym.files.get(1)).toBe('c:\\src\\test app.cc')
    expect(sym.inlineOrigins.get(0)).toEqual({ kind: 'inlineOrigin', id: 0, fileId: null, name: 'operator new' })
    expect(sym.functions).toEqual([
      {
        kind: 'func', address: 0x1000, size: 0x20, paramSize: 8, name: 'Foo::bar(int, char const*)',
        lines: [{ kind: 'line', address: 0x1000, size: 0x10, line: 11, fileId: 1 }, { kind: 'line', address: 0x1010, size: 0x10, line: 12, fileId: 1 }],
        inlines: [{ kind: 'inline', depth: 0, callLine: 12, callFileId: 1, originId: 0, ranges: [[0x1004, 4], [0x1010, 2]] }],
      },
    ])
    expect(sym.publics).toEqual([{ kind: 'public', address: 0x2000, paramSize: 4, name: '_start' }])
    expect(sym.cfi).toEqual([
      {
        init: { kind: 'cfiInit', address: 0x1000, size: 0x20, rules: '.cfa: $rsp 8 + .ra: .cfa -8 + ^' },
        changes: [{ kind: 'cfi', address: 0x1004, size: 0, rules: '.cfa: $rsp 16 + $rbp: .cfa -16 + ^' }],
      },
    ])
    expect(sym.stackWin.map((w) => [w.type, w.address, w.paramSize, w.savedRegisterSize, w.program, w.allocatesBasePointer])).toEqual([
      [4, 0x1000, 8, 0, '$T0 $ebp = $eip $T0 4 + ^ =', false],
      [0, 0x2000, 4, 8, null, true],
    ])
    expect(sym.report).toEqual({ lines: 14, skipped: 0, problems: [] })
  })

  it('tells the older INLINE form (no call file, origin with a file) from the newer one', () => {
    const old = parseSym(debugFixture('linux_inline.old.sym'))
    expect(old.inlineOrigins.get(1)).toEqual({ kind: 'inlineOrigin', id: 1, fileId: 0, name: 'foo()' })
    expect(old.functions[0]!.inlines[0]).toEqual({ kind: 'inline', depth: 0, callLine: 42, callFileId: null, originId: 1, ranges: [[0x15b45, 0x6b1]] })
    const current = parseSym(debugFixture('linux_inline.new.sym'))
    expect(current.functions[0]!.inlines[0]).toEqual({ kind: 'inline', depth: 0, callLine: 42, callFileId: 1, originId: 1, ranges: [[0x15b45, 0x6b1]] })
  })

  it('refuses a file that does not start with MODULE', () => {
    expect(() => parseSym('FUNC 1000 10 0 main\n')).toThrow(/not a Breakpad \.sym file/)
    expect(() => parseSym('')).toThrow(/not a Breakpad \.sym file/)
    expect(() => parseSym(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]))).toThrow(/not a Breakpad \.sym file/)
  })

  it('skips malformed and misplaced records, naming the first by line, and keeps the rest', () => {
    const text = ['MODULE Linux x86_64 ABC0 a.so', '1000 10 1 0', 'FUNC zz 10 0 broken', 'FUNC 1000 10 0 good', '1000 8 3', 'garbage here', 'STACK CFI 1000 .cfa: $rsp 8 +', 'PUBLIC 2000 0 pub'].join('\n')
    const sym = parseSym(text)
    expect(sym.functions.map((f) => f.name)).toEqual(['good'])
    expect(sym.publics).toHaveLength(1)
    expect(sym.report.skipped).toBe(5)
    expect(sym.report.problems).toEqual([
      'line 2: a line record outside a FUNC',
      'line 3: FUNC needs 3 hex numbers',
      'line 5: a line record needs an address, a size, a line and a file id',
      'line 6: unknown record "garbage"',
      'line 7: a STACK CFI without its INIT',
    ])
  })

  it('reads a truncated file up to where it was cut, the cut line skipped', () => {
    const whole = new TextEncoder().encode(SAMPLE)
    const cut = parseSym(whole.subarray(0, SAMPLE.indexOf('PUBLIC') + 9))
    expect(cut.functions).toHaveLength(1)
    expect(cut.publics).toEqual([])
    expect(cut.report.problems).toEqual(['line 10: PUBLIC needs 2 hex numbers'])
  })

  it('skips an overlong line without buffering it and goes on', () => {
    const long = `FUNC 1000 10 0 ${'x'.repeat(MAX_LINE_BYTES + 10)}\nFUNC 2000 10 0 after\n`
    const sym = parseSym(`MODULE Linux x86_64 ABC0 a.so\r\n${long}`)
    expect(sym.functions.map((f) => f.name)).toEqual(['after'])
    expect(sym.report.problems).toEqual(['line 2: line too long'])
  })

  it('streams: chunks cut anywhere (inside a line, a CRLF or a UTF-8 character) give the same records', async () => {
    const text = `${SAMPLE.replaceAll('\n', '\r\n')}\r\nFUNC 3000 4 0 naïve_función\r\n`
    const bytes = new TextEncoder().encode(text)
    const whole: SymRecord[] = []
    await readSym(bytes, (r) => void whole.push(r))
    for (const size of [1, 2, 3, 7, 64]) {
      const chunks = async function* () {
        for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
      }
      const streamed: SymRecord[] = []
      await readSym(chunks(), (r) => void streamed.push(r))
      expect(streamed).toEqual(whole)
    }
    expect(whole.at(-1)).toMatchObject({ kind: 'func', name: 'naïve_función' })
  })
})
