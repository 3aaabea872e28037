/** Display helpers of the analytics screens (pure, tested). */

/** A rate as a person reads it: one decimal ("98.8%"), never rounded up to 100% below 1 ("99.95%"); exactly 1 is "100%"; null "–". */
export function percent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined) return '–'
  if (rate === 1) return '100%'
  let d = 1
  while (d < 3 && (rate * 100).toFixed(d).startsWith('100')) d++
  // Past three decimals, cut rather than round: 0.999999 is "99.999%", not "100.000%".
  return `${(rate * 100).toFixed(d).startsWith('100') ? (Math.floor(rate * 100_000) / 1000).toFixed(3) : (rate * 100).toFixed(d)}%`
}

/** A count with thousands separators: 5000 → "5,000". */
export const count = (n: number): string => n.toLocaleString('en')

/** `n` of a thing with its plural: (1, 'player') → "1 player", (2,000, 'event') → "2,000 events". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`

/** How long ago a time was, in a short phrase: "just now", "12 s ago", "3 min ago", "2 h ago", "4 d ago". */
export function ago(iso: string, now: number): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
  if (s < 2) return 'just now'
  if (s < 60) return `${s} s ago`
  if (s < 3600) return `${Math.floor(s / 60)} min ago`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`
  return `${Math.floor(s / 86_400)} d ago`
}

/** `YYYY-MM-DD` days → Unix seconds at midnight UTC, the x axis of Chart. */
export const daySeconds = (days: string[]): number[] => days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)

/** A crash-free rate as a chart value in percent (null stays a gap). */
export const ratePoint = (rate: number | null): number | null => (rate === null ? null : Math.round(rate * 10_000) / 100)

const VERDICTS = {
  worse: { tone: 'danger', label: 'worse' },
  better: { tone: 'success', label: 'better' },
  no_difference: { tone: 'neutral', label: 'no difference' },
  not_enough_data: { tone: 'warning', label: 'not enough data' },
} as const

/** The bad-deploy verdict as a badge: its tone and its state in words ("not enough data"). */
export const verdictBadge = (v: keyof typeof VERDICTS) => VERDICTS[v]

/** A p-value for the statistics panel: "< 0.001", else three significant digits. */
export const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : String(Number(p.toPrecision(3))))
