import { projectPath } from '../api/client'
import { useApi, useApiWithHeaders } from '../api/resource'
import { Async, EmptyState, Section, Select, Table } from '../components'
import { setQuery, type RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import { ago, count } from './format'
import type { CrashGroup, ReleaseHealth } from './types'

/** A time as "3 h ago", the exact time on hover. */
export function When({ at }: { at: string }) {
  return (
    <time class="nowrap" dateTime={at} title={new Date(at).toLocaleString()}>
      {ago(at, Date.now())}
    </time>
  )
}

const reportsPath = (slug: string, n: number) => `/projects/${encodeURIComponent(slug)}/reports/${n}`
/** The report list filtered by a fingerprint: every report the group's events belong to. */
const fingerprintListPath = (slug: string, fingerprint: string) => `/projects/${encodeURIComponent(slug)}/reports?q=${encodeURIComponent(`fingerprint:${fingerprint}`)}`

/**
 * Crash groups as a studio reads them: the grouping key (the report list's fingerprint) linking to
 * its latest report and to all its reports, events and players, since when, in which versions.
 * With `version`, events and players are those of that version, the all-version totals beside them.
 */
export function CrashGroupTable({ groups, caption, slug, version }: { groups: CrashGroup[]; caption: string; slug: string; version?: string }) {
  if (groups.length === 0) return <EmptyState title="No crash groups">Crash and error reports appear here, grouped as the report list groups them.</EmptyState>
  const inVersion = version !== undefined
  return (
    <Table
      caption={caption}
      rows={groups}
      rowKey={(g) => g.fingerprint || g.id}
      columns={[
        {
          key: 'e',
          header: 'Crash',
          class: 'crash-col',
          render: (g) => (
            <>
              <a class="crash-key" href={reportsPath(slug, g.sample_report_number)}>
                {g.grouped_by || g.sample_title}
              </a>
              <div class="small muted">
                #{g.sample_report_number} ·{' '}
                <a href={fingerprintListPath(slug, g.fingerprint)}>
                  all its reports<span class="sr-only"> grouped as {g.grouped_by || g.sample_title}</span>
                </a>
              </div>
            </>
          ),
        },
        { key: 'n', header: inVersion ? `Events in ${version}` : 'Events', render: (g) => count(inVersion ? (g.events_in_version ?? 0) : g.events) },
        { key: 'p', header: inVersion ? `Players in ${version}` : 'Players', render: (g) => count(inVersion ? (g.players_in_version ?? 0) : g.players) },
        ...(inVersion ? [{ key: 'a', header: 'All versions', render: (g: CrashGroup) => <span class="nowrap">{`${count(g.events)} events · ${count(g.players)} players`}</span> }] : []),
        { key: 'f', header: 'First seen', render: (g) => <When at={g.first_seen} /> },
        { key: 'l', header: 'Last seen', render: (g) => <When at={g.last_seen} /> },
        ...(inVersion
          ? []
          : [{ key: 'v', header: 'Versions (events)', render: (g: CrashGroup) => <span class="small">{g.versions.map((v) => `${v.game_version || '–'} (${count(v.events)})`).join(', ')}</span> }]),
      ]}
    />
  )
}

/** `/projects/:slug/analytics/crashes?version=`: crash groups, most events first, of every version or one. */
export function CrashGroupsPage({ params, query }: RouteProps) {
  const slug = params.slug!
  const version = query.version || undefined
  const groups = useApiWithHeaders<CrashGroup[]>(projectPath(slug, '/crash-groups'), { query: { limit: 100, version } })
  const health = useApi<ReleaseHealth>(projectPath(slug, '/release-health'))
  const fresh = groups.data.value?.headers.get('x-glitchbox-fresh-as-of') ?? undefined
  return (
    <AnalyticsFrame slug={slug} title="Crash groups" fresh={{ at: [fresh], refresh: () => void groups.reload() }}>
      <Section title="Crash groups" description="Crash and error events grouped by fingerprint, the report list's grouping key (error type and top stack frame, line numbers removed).">
        <Select
          label="Version"
          value={version ?? ''}
          options={[{ value: '', label: 'All versions' }, ...(health.data.value?.versions ?? []).map((v) => ({ value: v.version, label: v.version }))]}
          onValue={(v: string) => setQuery({ version: v || null })}
        />
        <Async resource={groups}>{(g) => <CrashGroupTable groups={g.data} caption={version ? `Crash groups in ${version}` : 'Crash groups'} slug={slug} version={version} />}</Async>
      </Section>
    </AnalyticsFrame>
  )
}
