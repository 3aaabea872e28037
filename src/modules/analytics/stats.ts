/** Statistics behind the bad-deploy verdict and version ordering; pure functions. */

/** Standard normal CDF (Abramowitz & Stegun 7.1.26 for erf; absolute error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x)
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2
}

/**
 * Two-proportion z-test of successes `x1`/`n1` against `x2`/`n2` with the pooled proportion:
 * z = (p2 − p1) / sqrt(p(1−p)(1/n1 + 1/n2)), two-sided p-value 2(1 − Φ(|z|)). Equal proportions
 * with zero variance (both 0% or both 100%) give z = 0, p = 1.
 */
export function twoProportionZTest(x1: number, n1: number, x2: number, n2: number): { z: number; p: number } {
  const pooled = (x1 + x2) / (n1 + n2)
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
  if (se === 0) return { z: 0, p: 1 }
  const z = (x2 / n2 - x1 / n1) / se
  return { z, p: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) }
}

const SEMVER = /^v?(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]*)?$/

/** A version as numbers and pre-release identifiers, or null when it is not semantic (`1.2`, `v2.0.1-beta.2` are). */
export function parseSemver(v: string): { nums: number[]; pre: string[] } | null {
  const m = SEMVER.exec(v.trim())
  return m ? { nums: m[1]!.split('.').map(Number), pre: m[2] ? m[2].split('.') : [] } : null
}

/** Semantic-version order (missing parts are 0; a pre-release sorts before its release). Both must parse. */
export function compareSemver(a: string, b: string): number {
  const x = parseSemver(a)!
  const y = parseSemver(b)!
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0)
    if (d) return d
  }
  if (!x.pre.length || !y.pre.length) return y.pre.length - x.pre.length
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i]
    const q = y.pre[i]
    if (p === undefined) return -1
    if (q === undefined) return 1
    const np = /^\d+$/.test(p)
    const nq = /^\d+$/.test(q)
    if (np && nq && Number(p) !== Number(q)) return Number(p) - Number(q)
    if (np !== nq) return np ? -1 : 1
    if (p !== q) return p < q ? -1 : 1
  }
  return 0
}

/**
 * Versions newest first: semantic-version order when every one parses, else first-seen order
 * (`firstSeen` in ms), ties by name.
 */
export function newestFirst<T extends { version: string; firstSeen: number }>(versions: T[]): T[] {
  const semantic = versions.every((v) => parseSemver(v.version))
  return [...versions].sort((a, b) => (semantic ? compareSemver(b.version, a.version) : b.firstSeen - a.firstSeen) || (a.version < b.version ? 1 : -1))
}
