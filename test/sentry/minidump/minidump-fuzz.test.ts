// Property tests over mutated real dumps: whatever bytes arrive, parsing returns a JSON-ready
// result or throws MinidumpError for a reason it names. Every loop of the parser is bounded by a
// capped count, so each property of 400 runs ends in about a second; a stall would hit the timeout.
// The seed is fixed, so every run tries the same inputs; GLITCHBOX_FUZZ_SEED replays another seed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MinidumpError } from '../../../src/modules/sentry/minidump/minidump.errors'
import { parseMinidump } from '../../../src/modules/sentry/minidump/minidump-parser'
import { minidumpTitle, minidumpTopFrame } from '../../../src/modules/sentry/minidump/minidump-title'
import { fuzzSeed } from '../../helpers/fuzz-seed'
import { fixture, REAL_DUMPS } from './fixture'

const SEED = fuzzSeed(2323)
const RUNS = 400
/** Per property: ten times what a run takes on a loaded machine. */
const TIMEOUT_MS = 20_000

const dumps = REAL_DUMPS.map((name) => ({ name, bytes: fixture(name) }))

/** Parses, and checks the outcome: a serialisable result with a title, or a MinidumpError that is not a wrapped bug. */
function parsesOrRefuses(bytes: Uint8Array): void {
  try {
    const dump = parseMinidump(bytes)
    JSON.stringify(dump)
    expect(typeof minidumpTitle(dump)).toBe('string')
    minidumpTopFrame(dump)
  } catch (err) {
    expect(err).toBeInstanceOf(MinidumpError)
    // parseMinidump wraps an unexpected exception so callers see one type; here it would be a bug.
    expect((err as Error).message).not.toMatch(/^unreadable minidump/)
  }
}

/** Offsets of the fields that steer the parser: directory entries, stream counts, RVAs inside the streams read. */
function structuralOffsets(bytes: Uint8Array): number[] {
  const v = new DataView(bytes.buffer, bytes.byteOffset)
  const [count, dir] = [v.getUint32(8, true), v.getUint32(12, true)]
  const out = [8, 12]
  for (let i = 0; i < count; i++) {
    const at = dir + i * 12
    const [type, size, rva] = [v.getUint32(at, true), v.getUint32(at + 4, true), v.getUint32(at + 8, true)]
    out.push(at + 4, at + 8)
    if (type === 4) for (let m = 0; m < Math.min(v.getUint32(rva, true), 64); m++) out.push(rva + 4 + m * 108 + 20, rva + 4 + m * 108 + 76, rva + 4 + m * 108 + 80)
    if (type === 6) out.push(rva + 32, rva + 160, rva + 164)
    if (type === 7) out.push(rva + 24)
    if (type === 3) out.push(rva)
    if (size >= 4) out.push(rva)
  }
  return out.filter((o) => o + 4 <= bytes.length)
}

const dumpArb = fc.constantFrom(...dumps)
const u32Arb = (length: number) =>
  fc.oneof(fc.constantFrom(0, 1, 4, 0x7fffffff, 0x80000000, 0xffffffff, length - 4, length - 1, length, length + 1), fc.nat({ max: length + 64 }), fc.integer({ min: 0, max: 0xffffffff }))

describe('mutated real minidumps', () => {
  it('with random bytes flipped', () => {
    fc.assert(
      fc.property(dumpArb, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { minLength: 1, maxLength: 24 }), ({ bytes }, flips) => {
        const copy = bytes.slice()
        for (const [at, mask] of flips) copy[at % copy.length]! ^= mask
        parsesOrRefuses(copy)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  }, TIMEOUT_MS)

  it('cut at a random length', () => {
    fc.assert(
      fc.property(dumpArb, fc.double({ min: 0, max: 1, noNaN: true }), ({ bytes }, fraction) => {
        parsesOrRefuses(bytes.subarray(0, Math.floor(bytes.length * fraction)))
      }),
      { seed: SEED, numRuns: RUNS },
    )
  }, TIMEOUT_MS)

  it('with random RVAs, sizes and counts written into the fields that steer the parser', () => {
    const inputs = dumpArb.chain((d) => {
      const offsets = structuralOffsets(d.bytes)
      return fc.tuple(fc.constant(d), fc.array(fc.tuple(fc.constantFrom(...offsets), u32Arb(d.bytes.length)), { minLength: 1, maxLength: 6 }))
    })
    fc.assert(
      fc.property(inputs, ([{ bytes }, writes]) => {
        const copy = bytes.slice()
        const v = new DataView(copy.buffer)
        for (const [at, value] of writes) v.setUint32(at, value >>> 0, true)
        parsesOrRefuses(copy)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  }, TIMEOUT_MS)

  it('with one stream\'s location pointed at another stream, the header or the directory', () => {
    const inputs = dumpArb.chain((d) => {
      const v = new DataView(d.bytes.buffer, d.bytes.byteOffset)
      const [count, dir] = [v.getUint32(8, true), v.getUint32(12, true)]
      const rvas = [0, 4, 12, dir, ...Array.from({ length: count }, (_, i) => v.getUint32(dir + i * 12 + 8, true))]
      return fc.tuple(fc.constant(d), fc.nat({ max: count - 1 }), fc.constantFrom(...rvas), fc.option(u32Arb(d.bytes.length)))
    })
    fc.assert(
      fc.property(inputs, ([{ bytes }, entry, rva, size]) => {
        const copy = bytes.slice()
        const v = new DataView(copy.buffer)
        const at = v.getUint32(12, true) + entry * 12
        v.setUint32(at + 8, rva, true)
        if (size !== null) v.setUint32(at + 4, size >>> 0, true)
        parsesOrRefuses(copy)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  }, TIMEOUT_MS)

  it('random bytes behind a valid header', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 4096 }), fc.nat({ max: 64 }), (tail, streams) => {
        const bytes = new Uint8Array(32 + tail.length)
        const v = new DataView(bytes.buffer)
        v.setUint32(0, 0x504d444d, true)
        v.setUint32(4, 0xa793, true)
        v.setUint32(8, streams, true)
        v.setUint32(12, 32, true)
        bytes.set(tail, 32)
        parsesOrRefuses(bytes)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  }, TIMEOUT_MS)
})
