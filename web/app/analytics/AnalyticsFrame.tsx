import './analytics.css'
import type { ComponentChildren } from 'preact'
import { EmptyState, NavTabs, Page } from '../components'
import { can } from '../session'
import { Freshness } from './Freshness'

/**
 * The analytics section's frame: title, how fresh the numbers are (`fresh`: the screen's
 * `fresh_as_of` values and how to read them again), tabs, and the permission notice for members
 * without analytics.view.
 */
export function AnalyticsFrame({ slug, title, fresh, children }: { slug: string; title: string; fresh?: { at: (string | undefined)[]; refresh: () => void }; children: ComponentChildren }) {
  const base = `/projects/${encodeURIComponent(slug)}/analytics`
  const allowed = can('analytics.view')
  return (
    <Page title={title} actions={allowed && fresh ? <Freshness at={fresh.at} onRefresh={fresh.refresh} /> : undefined}>
      <NavTabs
        label="Analytics"
        items={[
          { href: base, label: 'Overview' },
          { href: `${base}/releases`, label: 'Release health' },
          { href: `${base}/crashes`, label: 'Crash groups' },
          { href: `${base}/players`, label: 'Players' },
          { href: `${base}/telemetry`, label: 'Telemetry' },
          { href: `${base}/performance`, label: 'Performance' },
        ]}
      />
      {allowed ? children : <EmptyState title="Not available to you">Analytics needs the “Analytics” permission: ask an owner or admin of the account.</EmptyState>}
    </Page>
  )
}
