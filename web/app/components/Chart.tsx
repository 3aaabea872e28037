import 'uplot/dist/uPlot.min.css'
import uPlot from 'uplot'
import { useEffect, useRef } from 'preact/hooks'

export type Series = { label: string; values: (number | null)[]; color?: string }

const DAY = 86_400
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** A UTC day as a tick reads it: "5 Jan". */
export const dayTick = (t: number): string => {
  const d = new Date(t * 1000)
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`
}
/** A value as an axis tick reads it: "95%", "1,200", "1.5k" past 10,000. */
export const valueTick = (v: number, unit?: '%'): string => (unit === '%' ? `${Number(v.toFixed(1))}%` : Math.abs(v) >= 10_000 ? `${Number((v / 1000).toFixed(1))}k` : v.toLocaleString('en'))

/**
 * A chart of ONE quantity per UTC day over uPlot (a second quantity gets its own chart: two scales
 * on one axis mislead). `x` is Unix seconds at midnight UTC. `unit: '%'` writes the axis in percent
 * (up to 100); `bars` draws counts as bars. Ticks are whole days ("5 Jan") at least 64 px apart
 * and 12 px type, so a phone's width shows four or five readable labels. The canvas is described
 * by `title` and a visually hidden table of the numbers, readable without seeing the chart.
 */
export function Chart({ title, x, series, height = 220, unit, bars }: { title: string; x: number[]; series: Series[]; height?: number; unit?: '%'; bars?: boolean }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const css = getComputedStyle(document.documentElement)
    const axis = { stroke: css.getPropertyValue('--muted').trim() || '#667', grid: { stroke: css.getPropertyValue('--border').trim() || '#ddd' }, ticks: { show: false }, font: '12px system-ui, sans-serif' }
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: {
          // Half a day either side: the first and last day's bar or point is not cut by the edge.
          x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
          y: { range: (_u, min, max) => yRange(min, max, unit) },
        },
        axes: [
          { ...axis, space: 64, incrs: [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY], values: (_u, ticks) => ticks.map(dayTick) },
          { ...axis, size: 56, incrs: unit === '%' ? [1, 2, 5, 10, 20, 25] : WHOLE, values: (_u, ticks) => ticks.map((v) => valueTick(v, unit)) },
        ],
        legend: { show: series.length > 1 },
        series: [
          { value: (_u, t) => (t === null ? '–' : dayTick(t)) },
          ...series.map((s, i) => {
            const stroke = s.color ?? PALETTE[i % PALETTE.length]!
            return bars
              ? { label: s.label, stroke, fill: stroke, width: 0, paths: uPlot.paths.bars!({ size: [0.7, 48], align: 0 }), points: { show: false } }
              : { label: s.label, stroke, width: 2, spanGaps: false, points: { show: true, size: 6, fill: stroke } }
          }),
        ],
      },
      [x, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    )
    const ro = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height }))
    ro.observe(el)
    return () => {
      ro.disconnect()
      plot.destroy()
    }
  }, [x, series, height, unit, bars])
  return (
    <figure class="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} aria-hidden="true" />
      <table class="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {series.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {x.map((t, i) => (
            <tr key={t}>
              <td>{new Date(t * 1000).toISOString().slice(0, 10)}</td>
              {series.map((s) => (
                <td key={s.label}>{s.values[i] === null || s.values[i] === undefined ? '–' : valueTick(s.values[i]!, unit)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

/** The y range: counts from 0; percentages up to 100, from a round 5 below the lowest value (a flat 100% still shows a band). */
export function yRange(min: number | null, max: number | null, unit?: '%'): [number, number] {
  if (unit === '%') return [Math.max(0, Math.min(90, Math.floor(((min ?? 100) - 1) / 5) * 5)), 100]
  return [0, Math.max(1, Math.ceil((max ?? 1) * 1.1))]
}

/** Tick steps of a count axis: whole numbers only (1, 2, 5, 10, 20, 50, …). */
const WHOLE = Array.from({ length: 27 }, (_, i) => [1, 2, 5][i % 3]! * 10 ** Math.floor(i / 3))

const PALETTE = ['#2e5bff', '#e5484d', '#30a46c', '#f5a524', '#8e4ec6', '#0ea5e9']
