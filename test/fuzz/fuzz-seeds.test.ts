import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fuzzSeed } from '../helpers/fuzz-seed'

const TEST_ROOT = join(import.meta.dirname, '..')

/** Every test source under test/ that runs a fast-check property (this file names the call, it makes none). */
function propertyTests(dir: string = TEST_ROOT): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return propertyTests(path)
    if (!/\.ts$/.test(entry.name) || path === import.meta.filename) return []
    const text = readFileSync(path, 'utf8')
    return text.includes('fc.assert(') ? [{ path: relative(TEST_ROOT, path), text }] : []
  })
}

describe('GLITCHBOX_FUZZ_SEED', () => {
  it('is the seed of every fuzz test when set, else each test keeps its own fixed seed', () => {
    expect(fuzzSeed(2323, {})).toBe(2323)
    expect(fuzzSeed(2323, { GLITCHBOX_FUZZ_SEED: '' })).toBe(2323)
    expect(fuzzSeed(2323, { GLITCHBOX_FUZZ_SEED: '-1712345' })).toBe(-1712345)
    expect(() => fuzzSeed(2323, { GLITCHBOX_FUZZ_SEED: 'random' })).toThrow(/GLITCHBOX_FUZZ_SEED must be an integer/)
  })

  const files = propertyTests()
  it('reaches the parser fuzz tests, the Unreal one included', () => {
    expect(files.map((f) => f.path)).toEqual(expect.arrayContaining(['sentry/unreal/unreal-fuzz.test.ts', 'sentry/minidump/minidump-fuzz.test.ts', 'sentry/envelope.test.ts']))
  })

  it.each(files.map((f) => [f.path, f.text]))('%s: every property runs from fuzzSeed', (_, text) => {
    expect(text).toMatch(/import \{ fuzzSeed \} from '[./]+\/helpers\/fuzz-seed'/)
    expect(text).toMatch(/const SEED = fuzzSeed\(\d[\d_]*\)/)
    // Each fc.assert(…) call passes `seed: SEED` in its parameters.
    const asserts = text.split('fc.assert(').length - 1
    const seeded = text.match(/seed: SEED\b/g)?.length ?? 0
    expect(seeded).toBeGreaterThanOrEqual(asserts)
  })
})
