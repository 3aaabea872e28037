/** The bad-deploy verdict as a sentence a producer reads first; the statistics stay in the answer beside it. */

/**
 * Two rates in percent with as few decimals as tell them apart (1 to 3), never rounding a rate
 * below 1 up to "100%": 0.8841 and 0.9823 → ["88.4%", "98.2%"]; 0.99951 → "99.95%".
 */
export function percentsApart(a: number, b: number): [string, string] {
  // Past three decimals a rate below 1 is cut rather than rounded: 0.999999 is "99.999%".
  const fmt = (r: number, d: number) => `${r < 1 && (r * 100).toFixed(d).startsWith('100') ? (Math.floor(r * 10 ** (d + 2)) / 10 ** d).toFixed(d) : (r * 100).toFixed(d)}%`
  const up = (r: number, d: number) => r < 1 && (r * 100).toFixed(d).startsWith('100')
  let d = 1
  while (d < 3 && ((a !== b && fmt(a, d) === fmt(b, d)) || up(a, d) || up(b, d))) d++
  return [fmt(a, d), fmt(b, d)]
}

/**
 * A p-value as people quote it: "p < 0.001", else two significant digits ("p = 0.0047", "p = 0.62");
 * one just under `alpha` that would round to it reads "p < 0.05", so the words never contradict the verdict.
 */
export function pText(p: number, alpha: number): string {
  if (p < 0.001) return 'p < 0.001'
  const shown = Number(p.toPrecision(2))
  return p < alpha && shown >= alpha ? `p < ${alpha}` : `p = ${shown}`
}

type Side = { version: string; crash_free_rate: number | null }

/**
 * "1.3.0-beta crashes more than 1.2.0: 88.4% vs 98.2% crash-free sessions, a real difference, not
 * chance (p < 0.001)"; without two versions to compare, what is missing.
 */
export function verdictSummary(o: { verdict: 'worse' | 'better' | 'no_difference' | 'not_enough_data'; current: Side | null; previous: Side | null; p: number | null; alpha: number; minSessions: number }): string {
  const { current, previous } = o
  if (o.verdict === 'not_enough_data' || !current || !previous || o.p === null) {
    return current
      ? `Not enough data to compare: only ${current.version} has ${o.minSessions} or more sessions; another version needs as many.`
      : `Not enough data to compare: no version has ${o.minSessions} or more sessions yet.`
  }
  const [now, before] = percentsApart(current.crash_free_rate!, previous.crash_free_rate!)
  const rates = `${now} vs ${before} crash-free sessions`
  if (o.verdict === 'no_difference') return `${current.version} and ${previous.version} crash about as often: ${rates}, no real difference, it could be chance (${pText(o.p, o.alpha)})`
  return `${current.version} crashes ${o.verdict === 'worse' ? 'more' : 'less'} than ${previous.version}: ${rates}, a real difference, not chance (${pText(o.p, o.alpha)})`
}
