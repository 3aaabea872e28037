import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'

/** A screen: its <h1>, optional actions beside it, and the document title. */
export function Page({ title, actions, children, subtitle }: { title: string; actions?: ComponentChildren; subtitle?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Glitchbox`
  }, [title])
  return (
    <div class="page">
      <div class="page-head">
        <div>
          <h1>{title}</h1>
          {subtitle && <p class="muted">{subtitle}</p>}
        </div>
        {actions && <div class="page-actions">{actions}</div>}
      </div>
      {children}
    </div>
  )
}

/** A titled card inside a screen. */
export function Section({ title, children, actions, description }: { title: string; description?: ComponentChildren; actions?: ComponentChildren; children: ComponentChildren }) {
  return (
    <section class="card" aria-label={title}>
      <div class="card-head">
        <div>
          <h2>{title}</h2>
          {description && <p class="muted">{description}</p>}
        </div>
        {actions && <div class="card-actions">{actions}</div>}
      </div>
      {children}
    </section>
  )
}

/** A labelled meter: used against limit (no limit: "unlimited"). */
export function UsageBar({ label, used, limit, format = String }: { label: string; used: number; limit: number | null; format?: (n: number) => string }) {
  const pct = limit ? Math.min(100, Math.round((used / limit) * 100)) : 0
  return (
    <div class="usage">
      <div class="usage-text">
        <span>{label}</span>
        <span>
          {format(used)} / {limit === null ? 'unlimited' : format(limit)}
        </span>
      </div>
      {limit !== null && <meter aria-label={label} min={0} max={limit} value={used} high={limit * 0.9} class={pct >= 90 ? 'usage-high' : ''} />}
    </div>
  )
}

/** A date as the browser's locale writes it, or a dash. */
export function formatDate(iso: string | null | undefined, withTime = true): string {
  if (!iso) return '–'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return '–'
  return withTime ? d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : d.toLocaleDateString(undefined, { dateStyle: 'medium' })
}

/** 1536 → "1.5 KB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10} ${units[i]}`
}
