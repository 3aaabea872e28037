import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, EmptyState, Section, Table, formatDate } from '../components'
import type { RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import type { CrashGroup } from './types'

/** Crash groups: error type, normalized top frame, counts, players, first and last seen, versions. */
export function CrashGroupTable({ groups, caption, slug }: { groups: CrashGroup[]; caption: string; slug?: string }) {
  if (groups.length === 0) return <EmptyState title="No crash groups">Crash and error reports appear here, grouped by error type and top stack frame.</EmptyState>
  return (
    <Table
      caption={caption}
      rows={groups}
      rowKey={(g) => String(g.id)}
      columns={[
        {
          key: 'e',
          header: 'Error',
          render: (g) => (
            <>
              <strong>{g.error_type || '(no error type)'}</strong>
              <div class="small muted break">{g.top_frame || '(no stack frame)'}</div>
              {slug ? <a href={`/projects/${encodeURIComponent(slug)}/reports/${g.sample_report_number}`}>#{g.sample_report_number}</a> : `#${g.sample_report_number}`}
            </>
          ),
        },
        { key: 'n', header: 'Reports', render: (g) => g.count_in_version ?? g.count },
        { key: 'p', header: 'Players', render: (g) => g.affected_players },
        { key: 'f', header: 'First seen', render: (g) => <span class="nowrap">{formatDate(g.first_seen)}</span> },
        { key: 'l', header: 'Last seen', render: (g) => <span class="nowrap">{formatDate(g.last_seen)}</span> },
        { key: 'v', header: 'Versions', render: (g) => g.versions.map((v) => `${v.game_version || '–'} (${v.count})`).join(', ') },
      ]}
    />
  )
}

/** `/projects/:slug/analytics/crashes`: every crash group, most reports first (tier 2). */
export function CrashGroupsPage({ params }: RouteProps) {
  const slug = params.slug!
  const groups = useApi<CrashGroup[]>(projectPath(slug, '/crash-groups'), { query: { limit: 100 } })
  return (
    <AnalyticsFrame slug={slug} title="Crash groups">
      <Section title="Crash groups" description="Crash and error reports grouped by error type and top stack frame (line numbers and addresses removed).">
        <Async resource={groups}>{(g) => <CrashGroupTable groups={g} caption="Crash groups" slug={slug} />}</Async>
      </Section>
    </AnalyticsFrame>
  )
}
