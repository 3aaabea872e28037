import fc from 'fast-check'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { unpackContainer } from '../../../src/modules/sentry/unreal/unreal-container'
import { parseUnrealCrash } from '../../../src/modules/sentry/unreal/unreal-crash'
import { UnrealCrashError } from '../../../src/modules/sentry/unreal/unreal-errors'
import { fuzzSeed } from '../../helpers/fuzz-seed'
import { compress, fixture, writeContainer } from './container-writer'

/**
 * Property tests over the real uploads, mutated: whatever the bytes, parseUnrealCrash either returns a
 * crash whose files are plain names viewing one buffer, or throws an UnrealCrashError with a short
 * message, and never takes long. The seed is fixed (GLITCHBOX_FUZZ_SEED replays another; fast-check prints it).
 */
const SEED = fuzzSeed(20_261_124)
const RUNS = 300
const MAX_MS = 2000

const uploads = ['unreal_crash', 'unreal_crash_apple'].map(fixture)
const decoded = uploads.map((u) => new Uint8Array(inflateSync(u)))
const files = decoded.map((d) => unpackContainer(d).files)
/** Four-byte values that break lengths and counts. */
const EDGE_I32 = [-1, 0, 1, 12, 100, 101, 260, 261, 1025, 0x7fffffff, -0x80000000, 0x40ffffff]

type Mutation = { at: number; kind: 'byte'; value: number } | { at: number; kind: 'i32'; value: number } | { at: number; kind: 'cut' } | { at: number; kind: 'insert'; bytes: Uint8Array }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant('byte' as const), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ at: fc.nat(), kind: fc.constant('i32' as const), value: fc.constantFrom(...EDGE_I32) }),
  fc.record({ at: fc.nat(), kind: fc.constant('cut' as const) }),
  fc.record({ at: fc.nat(), kind: fc.constant('insert' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
)

/** `data` with the mutations applied; positions wrap around its length, biased toward the headers. */
function mutate(data: Uint8Array, mutations: Mutation[]): Uint8Array {
  let out = data.slice()
  for (const m of mutations) {
    const at = m.at % 3 === 0 ? m.at % Math.min(out.length || 1, 1200) : m.at % (out.length || 1)
    if (m.kind === 'byte') out[at] = m.value
    else if (m.kind === 'i32' && at + 4 <= out.length) new DataView(out.buffer).setInt32(at, m.value, true)
    else if (m.kind === 'cut') out = out.slice(0, at)
    else if (m.kind === 'insert') {
      const grown = new Uint8Array(out.length + m.bytes.length)
      grown.set(out.subarray(0, at))
      grown.set(m.bytes, at)
      grown.set(out.subarray(at), at + m.bytes.length)
      out = grown
    }
  }
  return out
}

/** Parses and checks the outcome; answers 'ok' or the refusal's reason. */
async function outcomeOf(body: Uint8Array): Promise<string> {
  const started = performance.now()
  try {
    const crash = await parseUnrealCrash(body, { maxDecodedBytes: 2 * 1024 * 1024 })
    expect(crash.files.length).toBeLessThanOrEqual(100)
    for (const f of crash.files) {
      expect(f.name).not.toMatch(/[/\\\x00-\x1f]|^\.\.?$/)
      expect(f.bytes.buffer).toBe(crash.files[0]!.bytes.buffer)
    }
    return 'ok'
  } catch (error) {
    if (!(error instanceof UnrealCrashError)) throw error
    expect(error.message.length).toBeLessThan(300)
    expect([400, 413]).toContain(error.status)
    return error.reason
  } finally {
    expect(performance.now() - started).toBeLessThan(MAX_MS)
  }
}

describe('parseUnrealCrash on mutated real uploads', () => {
  it('answers a crash or an UnrealCrashError when the compressed bytes are mutated', async () => {
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (which, mutations) => {
        seen.add(await outcomeOf(mutate(uploads[which]!, mutations)))
      }),
      { seed: SEED, numRuns: RUNS },
    )
    expect(seen.has('bad_compression')).toBe(true)
  })

  it('answers a crash or an UnrealCrashError when the container inside is mutated', async () => {
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (which, mutations) => {
        seen.add(await outcomeOf(compress(mutate(decoded[which]!, mutations))))
      }),
      { seed: SEED, numRuns: RUNS },
    )
    // The mutations reach every branch: intact crashes, broken containers, broken contexts.
    expect([...seen].sort()).toEqual(expect.arrayContaining(['bad_container', 'ok']))
  })

  it('answers a crash or an UnrealCrashError when the crash context XML is mutated', async () => {
    const tokens = ['<', '>', '</', '/>', '&', '&amp;', '&#x0;', '<!DOCTYPE x>', '<!--', ']]>', '<![CDATA[', '"', '<RuntimeProperties>', '</RuntimeProperties>', '\u0000', '\uFFFD']
    const seen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: 1 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...tokens), fc.boolean()), { minLength: 1, maxLength: 6 }),
        async (which, edits) => {
          let xml = new TextDecoder().decode(files[which]!.find((f) => f.kind === 'context')!.bytes)
          for (const [at, token, replace] of edits) {
            const i = at % xml.length
            xml = xml.slice(0, i) + token + xml.slice(replace ? i + token.length : i)
          }
          const repacked = files[which]!.map((f) => (f.kind === 'context' ? { name: f.name, bytes: new TextEncoder().encode(xml) } : f))
          seen.add(await outcomeOf(compress(writeContainer(repacked, { layout: which ? 'legacy' : 'CR1' }))))
        },
      ),
      { seed: SEED, numRuns: RUNS },
    )
    expect(seen.has('bad_context')).toBe(true)
  })
})
