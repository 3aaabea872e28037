import type { ComponentChildren } from 'preact'
import { useId, useRef } from 'preact/hooks'
import { Link } from '../router'

export type Tab = { key: string; label: string }

/** In-page tabs (WAI-ARIA tabs pattern: arrow keys move between tabs, one tab stop). */
export function Tabs({ tabs, active, onChange, label, children }: { tabs: Tab[]; active: string; onChange: (key: string) => void; label: string; children: ComponentChildren }) {
  const base = useId()
  const list = useRef<HTMLDivElement>(null)
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.key === active)
    let j = i
    if (e.key === 'ArrowRight') j = (i + 1) % tabs.length
    else if (e.key === 'ArrowLeft') j = (i - 1 + tabs.length) % tabs.length
    else if (e.key === 'Home') j = 0
    else if (e.key === 'End') j = tabs.length - 1
    else return
    e.preventDefault()
    onChange(tabs[j]!.key)
    list.current?.querySelectorAll<HTMLElement>('[role=tab]')[j]?.focus()
  }
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} class="tablist" ref={list} onKeyDown={onKey}>
        {tabs.map((t) => (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={`${base}-${t.key}`}
            aria-selected={t.key === active}
            aria-controls={`${base}-panel`}
            tabIndex={t.key === active ? 0 : -1}
            onClick={() => onChange(t.key)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${active}`} class="tabpanel">
        {children}
      </div>
    </div>
  )
}

/** Tabs that are URLs (settings sections): a nav of links, the current one marked `aria-current`. */
export function NavTabs({ label, items }: { label: string; items: { href: string; label: string }[] }) {
  return (
    <nav aria-label={label} class="navtabs">
      {items.map((i) => (
        <Link key={i.href} href={i.href} exact>
          {i.label}
        </Link>
      ))}
    </nav>
  )
}
