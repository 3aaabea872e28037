/** Statistics behind the bad-deploy verdict; pure functions. */

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
