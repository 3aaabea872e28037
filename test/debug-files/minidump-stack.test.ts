// What the stack walker reads from a minidump, checked against minidump_stackwalk's printout of the
// context (Breakpad src/processor/testdata/minidump2.stackwalk.out) and minidump_dump's of the
// thread list (minidump2.dump.out).
import { describe, expect, it } from 'vitest'
import { readStackInput } from '../../src/modules/sentry/minidump/minidump-stack'
import { MinidumpError } from '../../src/modules/sentry/minidump/minidump.errors'
import { debugFixture, testDmp } from './fixture'

describe('readStackInput', () => {
  it('gives the crashed thread the exception context, with every register minidump_stackwalk prints', () => {
    const input = readStackInput(testDmp())
    expect(input.cpu).toBe('x86')
    const crashed = input.threads.find((t) => t.crashed)!
    expect(crashed.id).toBe(0xbf4)
    expect(Object.fromEntries(crashed.registers!)).toEqual({
      eip: 0x40429en, esp: 0x12fe84n, ebp: 0x12fe88n, ebx: 0x7c80abc1n, esi: 2n, edi: 0xa28n, eax: 0x45n, ecx: 0x12fe94n, edx: 0x42bc58n, efl: 0x10246n,
    })
  })

  it('reads each thread stack and the module ranges', () => {
    const input = readStackInput(testDmp())
    // minidump2.dump.out: thread 0xbf4's stack starts at 0x12f31c, 0xce4 bytes; thread 0x11c0 at 0x97f6e8, 0x918 bytes.
    expect(input.threads.map((t) => [t.id, t.stack.start, t.stack.bytes.length])).toEqual([
      [0xbf4, 0x12f31cn, 0xce4],
      [0x11c0, 0x97f6e8n, 0x918],
    ])
    expect(input.modules.find((m) => m.module.name === 'kernel32.dll')).toMatchObject({ base: 0x7c800000n, end: 0x7c8f4000n })
    expect(input.memory.length).toBeGreaterThanOrEqual(2)
  })

  it('reads amd64 contexts', () => {
    const input = readStackInput(debugFixture('linux_inline.dmp'))
    expect(input.cpu).toBe('amd64')
    expect(input.threads[0]!.registers!.get('rip')).toBe(0x2161b6n)
  })

  it('throws MinidumpError on bytes that are not a minidump', () => {
    expect(() => readStackInput(new Uint8Array(64))).toThrow(MinidumpError)
  })
})
