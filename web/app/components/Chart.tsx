import 'uplot/dist/uPlot.min.css'
import uPlot from 'uplot'
import { useEffect, useRef } from 'preact/hooks'

export type Series = { label: string; values: (number | null)[]; color?: string }

/**
 * A time-series line chart over uPlot. `x` is Unix seconds. The canvas is described by `title` and a
 * visually hidden table of the numbers, so the figures are readable without seeing the chart.
 */
export function Chart({ title, x, series, height = 220 }: { title: string; x: number[]; series: Series[]; height?: number }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (!el) return
    const css = getComputedStyle(document.documentElement)
    const axis = { stroke: css.getPropertyValue('--muted').trim() || '#667', grid: { stroke: css.getPropertyValue('--border').trim() || '#ddd' } }
    const plot = new uPlot(
      {
        width: el.clientWidth || 600,
        height,
        axes: [axis, axis],
        series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: s.color ?? PALETTE[i % PALETTE.length], width: 2 }))],
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
  }, [x, series, height])
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
                <td key={s.label}>{s.values[i] ?? '–'}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

const PALETTE = ['#2e5bff', '#e5484d', '#30a46c', '#f5a524', '#8e4ec6', '#0ea5e9']
