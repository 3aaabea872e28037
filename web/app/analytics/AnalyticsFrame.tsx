import type { ComponentChildren } from 'preact'
import { EmptyState, NavTabs, Page } from '../components'
import { can } from '../session'

/** The analytics section's frame: title, tabs, and the permission notice for members without analytics.view. */
export function AnalyticsFrame({ slug, title, children }: { slug: string; title: string; children: ComponentChildren }) {
  const base = `/projects/${encodeURIComponent(slug)}/analytics`
  return (
    <Page title={title}>
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
      {can('analytics.view') ? children : <EmptyState title="Not available to you">Analytics needs the “Analytics” permission: ask an owner or admin of the account.</EmptyState>}
    </Page>
  )
}
