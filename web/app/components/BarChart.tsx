import './bar-chart.css'

export type Bar = { label: string; value: number | null; text: string }

/**
 * Horizontal bars of ONE quantity, one per row, in the order given (release health: one bar per
 * release, ordered by version). HTML rather than canvas: labels wrap and stay readable at a phone's
 * width, and it is a real table for screen readers. Bars start at zero and end at `max` (default:
 * the largest value); `text` is the value as a person reads it, printed beside its bar.
 */
export function BarChart({ title, label, rows, max }: { title: string; label: string; rows: Bar[]; max?: number }) {
  const top = max ?? Math.max(0, ...rows.map((r) => r.value ?? 0))
  return (
    <figure class="bar-chart">
      <figcaption>{title}</figcaption>
      <table>
        <caption class="sr-only">{title}</caption>
        <thead class="sr-only">
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">{title}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td>
                <div class="bar-cell">
                  <span class="bar-track" aria-hidden="true">
                    <span class="bar" style={{ width: `${top > 0 && r.value !== null ? Math.max(0, Math.min(100, (r.value / top) * 100)) : 0}%` }} />
                  </span>
                  <span class="bar-value">{r.text}</span>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
