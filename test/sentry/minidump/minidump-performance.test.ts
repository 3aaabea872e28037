// A minidump of tens of megabytes is read in a few milliseconds: only the directory and the streams
// a report needs are touched, through views of the uploaded bytes, never a copy of them.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_MODULES } from '../../../src/modules/sentry/minidump/module-list'
import { parseMinidump } from '../../../src/modules/sentry/minidump/minidump-parser'
import { amd64Context, buildMinidump, rsds } from './minidump-builder'
import { fixture } from './fixture'
import { cpuMsOf } from '../../helpers/cpu-time'

const TEN_MB = 10 * 1024 * 1024

/**
 * The least CPU time of `runs` runs of `fn`, in milliseconds: the parser's own cost. The machine runs
 * other test files and helpers at the same time, which adds to wall time, not to this thread's CPU.
 */
function bestMs(runs: number, fn: () => void): number {
  return Math.min(...Array.from({ length: runs }, () => cpuMsOf(fn)))
}

afterEach(() => vi.restoreAllMocks())

describe('parsing large minidumps', () => {
  // The worst a real upload can ask of the parser: the module cap reached, each module with a
  // long path and a CodeView record, and the rest of 10 MB as memory the parser never reads.
  const modules = Array.from({ length: MAX_MODULES }, (_, i) => ({
    base: 0x7ff600000000n + BigInt(i) * 0x100000n,
    size: 0x100000,
    path: `C:\\Program Files\\Studio\\Game\\Binaries\\Win64\\plugins\\module-${i}.dll`,
    cv: rsds(new Uint8Array(16).fill(i & 0xff), 1, `D:\\build\\module-${i}.pdb`),
  }))
  const big = buildMinidump({ arch: 9, exception: { code: 0xc0000005, parameters: [0n, 0n], context: amd64Context(0x7ff600000000n + 0x1234n) }, modules, threads: 200 })
  const padded = new Uint8Array(TEN_MB)
  padded.set(big)

  it('reads a 10 MB dump with 4,096 modules well under 50 ms', () => {
    const dump = parseMinidump(padded)
    expect(dump.modules).toHaveLength(MAX_MODULES)
    expect(dump.crashSite).toEqual({ address: '0x7ff600001234', module: 'module-0.dll', offset: '0x1234' })
    expect(bestMs(7, () => parseMinidump(padded))).toBeLessThan(50)
  })

  it('reads a dump inside a larger buffer at an odd offset, copying none of it', () => {
    const real = fixture('test.dmp')
    const host = new Uint8Array(TEN_MB)
    host.set(real, 3)
    const view = host.subarray(3, 3 + real.length)
    const sliced: number[] = []
    const slice = Uint8Array.prototype.slice
    vi.spyOn(Uint8Array.prototype, 'slice').mockImplementation(function (this: Uint8Array, ...args: [number?, number?]) {
      const copy = slice.apply(this, args)
      sliced.push(copy.length)
      return copy
    })
    const bufferSlice = vi.spyOn(ArrayBuffer.prototype, 'slice')
    expect(parseMinidump(view)).toEqual(parseMinidump(real))
    expect(Math.max(0, ...sliced)).toBeLessThanOrEqual(16)
    expect(bufferSlice).not.toHaveBeenCalled()
  })
})
