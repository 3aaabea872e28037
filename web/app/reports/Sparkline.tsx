/** Width of one day's bar and the gap after it, in px (14 days: 56 px). */
const BAR = 3
const GAP = 1
const HEIGHT = 16

/**
 * A report's events per day (over the last 14 or 30 days, today on the right) or per hour (over 24
 * hours, this hour on the right) as small bars; scaled to its own busiest bar, so the shape (rising,
 * fading, a spike) reads at a glance. Empty bars show a one-pixel baseline. The numbers are its accessible name.
 */
export function Sparkline({ counts, unit = 'day' }: { counts: number[]; unit?: 'day' | 'hour' }) {
  const max = Math.max(1, ...counts)
  const total = counts.reduce((a, b) => a + b, 0)
  const last = counts.at(-1) ?? 0
  const span = unit === 'day' ? `${counts.length} days, ${last} today` : `${counts.length} hours, ${last} this hour`
  const label = `${total} event${total === 1 ? '' : 's'} in ${span}; per ${unit}: ${counts.join(', ')}`
  return (
    <svg class="sparkline" width={counts.length * (BAR + GAP)} height={HEIGHT} viewBox={`0 0 ${counts.length * (BAR + GAP)} ${HEIGHT}`} role="img" aria-label={label}>
      <title>{label}</title>
      {counts.map((n, i) => {
        const h = n === 0 ? 1 : Math.max(2, Math.round((n / max) * HEIGHT))
        return <rect key={i} x={i * (BAR + GAP)} y={HEIGHT - h} width={BAR} height={h} class={n === 0 ? 'sparkline-empty' : undefined} />
      })}
    </svg>
  )
}
