/** Display helpers of the analytics screens (pure, tested). */

/** 0.9876 → "98.76%"; null → "–". */
export const percent = (rate: number | null | undefined): string => (rate === null || rate === undefined ? '–' : `${(rate * 100).toFixed(2)}%`)

/** `YYYY-MM-DD` days → Unix seconds at midnight UTC, the x axis of Chart. */
export const daySeconds = (days: string[]): number[] => days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)

/** A crash-free rate as a chart value in percent (null stays a gap). */
export const ratePoint = (rate: number | null): number | null => (rate === null ? null : Math.round(rate * 10_000) / 100)

const VERDICTS = {
  worse: { tone: 'danger', text: 'Worse: the newest version crashes significantly more' },
  better: { tone: 'success', text: 'Better: the newest version crashes significantly less' },
  no_difference: { tone: 'neutral', text: 'No significant difference' },
  not_enough_data: { tone: 'warning', text: 'Not enough data: two versions with 10+ ended sessions are needed' },
} as const

/** The bad-deploy verdict as a badge tone and a sentence. */
export const verdictText = (v: keyof typeof VERDICTS) => VERDICTS[v]

/** Chart points of versions by first-seen time (Unix seconds, strictly increasing), crash-free rate in percent; unseen versions left out. */
export function versionPoints(versions: { first_seen: string | null; crash_free_rate: number | null }[]): { x: number; y: number | null }[] {
  const seen = versions.filter((v) => v.first_seen).map((v) => ({ x: Math.floor(Date.parse(v.first_seen!) / 1000), y: ratePoint(v.crash_free_rate) }))
  seen.sort((a, b) => a.x - b.x)
  for (let i = 1; i < seen.length; i++) if (seen[i]!.x <= seen[i - 1]!.x) seen[i]!.x = seen[i - 1]!.x + 1
  return seen
}
