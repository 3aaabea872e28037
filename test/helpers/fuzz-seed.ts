/**
 * The seed of a property (fuzz) test: `GLITCHBOX_FUZZ_SEED` when set (CI fixes it; fast-check prints
 * the seed of a failing run, and setting it replays that run in every fuzz test), else the test's
 * own fixed `fallback`, so a plain run tries the same inputs every time. A value that is not an
 * integer stops the test with a message naming the variable rather than fuzzing with NaN.
 */
export function fuzzSeed(fallback: number, env: Record<string, string | undefined> = process.env): number {
  const raw = env.GLITCHBOX_FUZZ_SEED?.trim()
  if (!raw) return fallback
  const seed = Number(raw)
  if (!Number.isSafeInteger(seed)) throw new Error(`GLITCHBOX_FUZZ_SEED must be an integer (fast-check's seed), got "${raw.slice(0, 40)}"`)
  return seed
}
