/** Width of one day's bar and the gap after it, in px (14 days: 56 px). */
const BAR = 3
const GAP = 1
const HEIGHT = 16

/**
 * A report's events per day over the last 14 days as small bars, today on the right; scaled to its
 * own busiest day, so the shape (rising, fading, a spike) reads at a glance. Days without events
 * show a one-pixel baseline. The numbers are its accessible name.
 */
export function Sparkline({ counts }: { counts: number[] }) {
  const max = Math.max(1, ...counts)
  const total = counts.reduce((a, b) => a + b, 0)
  const today = counts.at(-1) ?? 0
  const label = `${total} event${total === 1 ? '' : 's'} in 14 days, ${today} today; per day: ${counts.join(', ')}`
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
