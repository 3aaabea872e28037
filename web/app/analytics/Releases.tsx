import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Badge, Chart, EmptyState, Section, Select, Table } from '../components'
import { setQuery, type RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import { CrashGroupTable } from './Crashes'
import { daySeconds, percent, ratePoint, verdictText, versionPoints } from './format'
import type { BadDeploy, ReleaseHealth, VersionHealth } from './types'

/** The bad-deploy comparison with its numbers and the stated threshold. */
export function BadDeployCard({ slug }: { slug: string }) {
  const r = useApi<BadDeploy>(projectPath(slug, '/bad-deploy'))
  return (
    <Section title="Latest deploy" description="The two newest versions with at least 10 ended sessions, compared by a two-proportion z-test.">
      <Async resource={r}>
        {(b) => {
          const v = verdictText(b.verdict)
          return (
            <div>
              <p>
                <Badge tone={v.tone}>{b.verdict.replace('_', ' ')}</Badge> {v.text} ({b.threshold.rule}).
              </p>
              {b.current && (
                <Table
                  caption="Versions compared"
                  rows={[b.current, ...(b.previous ? [b.previous] : [])]}
                  rowKey={(x) => x.version}
                  columns={[
                    { key: 'v', header: 'Version', render: (x) => x.version },
                    { key: 's', header: 'Ended sessions', render: (x) => x.sessions },
                    { key: 'c', header: 'Crash-free', render: (x) => percent(x.crash_free_rate) },
                    { key: 'r', header: 'Reports per 100 sessions', render: (x) => x.reports_per_100_sessions },
                  ]}
                />
              )}
              {b.p_value !== null && (
                <p class="small muted">
                  Crash-free change {percent(b.crash_free_rate_change)}, reports per 100 change {b.reports_per_100_change}, z = {b.z}, p = {b.p_value}
                </p>
              )}
            </div>
          )
        }}
      </Async>
    </Section>
  )
}

/** Crash-free rate per version, each placed at the time it was first seen (versions not rolled up yet are left out). */
function VersionChart({ versions }: { versions: ReleaseHealth['versions'] }) {
  const points = versionPoints(versions)
  if (points.length === 0) return null
  return <Chart title="Crash-free rate (%) per version, by when it was first seen" x={points.map((p) => p.x)} series={[{ label: 'Crash-free %', values: points.map((p) => p.y) }]} />
}

/** `/projects/:slug/analytics/releases?version=`: per-version health, the verdict, and one version's daily chart and crash groups. */
export function ReleaseHealthPage({ params, query }: RouteProps) {
  const slug = params.slug!
  const health = useApi<ReleaseHealth>(projectPath(slug, '/release-health'))
  const version = query.version || null
  const one = useApi<VersionHealth>(version ? projectPath(slug, '/release-health/version') : null, { query: { version: version ?? '', days: 30 } })
  return (
    <AnalyticsFrame slug={slug} title="Release health">
      <BadDeployCard slug={slug} />
      <Section title="Versions" description="All-time sessions and crash-free rate; adoption = share of the last 7 days' sessions.">
        <Async resource={health} empty={<EmptyState title="No versions yet">Sessions and reports name their game version.</EmptyState>} isEmpty={(h) => h.versions.length === 0}>
          {(h) => (
            <>
              <VersionChart versions={h.versions} />
              <Table
                caption="Release health per version"
                rows={h.versions}
                rowKey={(v) => v.version}
                columns={[
                  { key: 'v', header: 'Version', render: (v) => <a href={`?version=${encodeURIComponent(v.version)}`}>{v.version}</a> },
                  { key: 's', header: 'Sessions', render: (v) => v.sessions },
                  { key: 'c', header: 'Crash-free', render: (v) => percent(v.crash_free_rate) },
                  { key: 'r', header: 'Reports', render: (v) => v.reports },
                  { key: 'p', header: 'Players', render: (v) => v.players },
                  { key: 'a', header: 'Adoption (7 days)', render: (v) => percent(v.adoption_share) },
                ]}
              />
              <Select
                label="Version details"
                value={version ?? ''}
                options={[{ value: '', label: 'Choose a version' }, ...h.versions.map((v) => ({ value: v.version, label: v.version }))]}
                onValue={(v: string) => setQuery({ version: v || null })}
              />
            </>
          )}
        </Async>
      </Section>
      {version && (
        <Section title={`Version ${version}`} description="Daily sessions and crash-free rate over 30 days, and its largest crash groups.">
          <Async resource={one}>
            {(v) => (
              <>
                <Chart
                  title={`Version ${v.version}: crash-free rate (%) and sessions per day`}
                  x={daySeconds(v.daily.map((d) => d.day))}
                  series={[
                    { label: 'Crash-free %', values: v.daily.map((d) => ratePoint(d.crash_free_rate)) },
                    { label: 'Sessions', values: v.daily.map((d) => d.sessions) },
                  ]}
                />
                <CrashGroupTable groups={v.top_crash_groups} caption={`Top crash groups in ${v.version}`} />
              </>
            )}
          </Async>
        </Section>
      )}
    </AnalyticsFrame>
  )
}
