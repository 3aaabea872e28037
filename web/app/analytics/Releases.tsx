import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, BarChart, Chart, EmptyState, Section, Select, Table } from '../components'
import { setQuery, type RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import { BadDeployCard } from './BadDeployCard'
import { CrashGroupTable, When } from './Crashes'
import { count, counted, daySeconds, percent, ratePoint } from './format'
import type { BadDeploy, ReleaseHealth, VersionHealth } from './types'
import { ALL_ENVIRONMENTS, chosenEnvironment, environmentQuery, rememberEnvironment } from './environment-choice'
import type { FacetValues } from '../reports/report-types'

/** The environment chooser: `production` (with sessions that name none), every environment the project's reports came from, or all. */
function EnvironmentChooser({ slug, value, onValue }: { slug: string; value: string; onValue: (v: string) => void }) {
  const facets = useApi<FacetValues>(projectPath(slug, '/bugs/facets'))
  const seen = facets.data.value?.environments ?? []
  const names = [...new Set(['production', ...seen.filter((e) => e.toLowerCase() !== 'production'), ...(value === ALL_ENVIRONMENTS ? [] : [value])])]
  return <Select label="Environment" value={value} onValue={onValue} options={[...names.map((e) => ({ value: e, label: e })), { value: ALL_ENVIRONMENTS, label: 'All environments' }]} />
}

/** One bar per release, newest first as the table lists them: crash-free sessions, then sessions (one quantity per chart). */
function VersionBars({ versions }: { versions: ReleaseHealth['versions'] }) {
  return (
    <div class="analytics-grid">
      <BarChart
        title="Crash-free sessions by version"
        label="Version"
        max={100}
        rows={versions.map((v) => ({ label: v.version, value: v.crash_free_rate === null ? null : v.crash_free_rate * 100, text: v.crash_free_rate === null ? 'no sessions' : percent(v.crash_free_rate) }))}
      />
      <BarChart title="Sessions by version" label="Version" rows={versions.map((v) => ({ label: v.version, value: v.sessions, text: count(v.sessions) }))} />
    </div>
  )
}

/** One version: its totals in a sentence, its days (crash-free rate and sessions, each on its own chart), its largest crash groups. */
function VersionDetails({ slug, v }: { slug: string; v: VersionHealth }) {
  const x = daySeconds(v.daily.map((d) => d.day))
  return (
    <>
      <p class="version-summary">
        <strong>{counted(v.events, 'event')}</strong> from <strong>{counted(v.players, 'player')}</strong> · {counted(v.sessions, 'session')}, {percent(v.crash_free_rate)} crash-free · {counted(v.reports, 'new report')}
        {v.first_seen && (
          <>
            {' '}
            · first seen <When at={v.first_seen} />
          </>
        )}
      </p>
      <div class="analytics-grid">
        <Chart title={`Crash-free sessions per day in ${v.version} (%)`} unit="%" x={x} series={[{ label: 'Crash-free %', values: v.daily.map((d) => ratePoint(d.crash_free_rate)) }]} />
        <Chart title={`Sessions per day in ${v.version}`} bars x={x} series={[{ label: 'Sessions', values: v.daily.map((d) => d.sessions) }]} />
      </div>
      <h3>Largest crash groups in {v.version}</h3>
      <CrashGroupTable groups={v.top_crash_groups} caption={`Top crash groups in ${v.version}`} slug={slug} version={v.version} />
    </>
  )
}

/** `/projects/:slug/analytics/releases?version=`: the verdict in words, one bar per release, the table, and one version's details. */
export function ReleaseHealthPage({ params, query }: RouteProps) {
  const slug = params.slug!
  // Production by default, as the verdict a studio acts on; the choice stays in the address and this browser.
  const environment = query.environment || chosenEnvironment(slug)
  const only = environmentQuery(environment)
  const verdict = useApi<BadDeploy>(projectPath(slug, '/bad-deploy'), { query: only })
  const health = useApi<ReleaseHealth>(projectPath(slug, '/release-health'), { query: only })
  const version = query.version || null
  const one = useApi<VersionHealth>(version ? projectPath(slug, '/release-health/version') : null, { query: { version: version ?? '', days: 30, ...only } })
  const choose = (v: string) => {
    rememberEnvironment(slug, v)
    setQuery({ environment: v })
  }
  const refresh = () => {
    void verdict.reload()
    void health.reload()
    if (version) void one.reload()
  }
  return (
    <AnalyticsFrame slug={slug} title="Release health" fresh={{ at: [verdict.data.value?.fresh_as_of, health.data.value?.fresh_as_of, version ? one.data.value?.fresh_as_of : undefined], refresh }}>
      <EnvironmentChooser slug={slug} value={environment} onValue={choose} />
      <BadDeployCard resource={verdict} />
      <Section title="Versions" description="Newest first. Crash-free: sessions that did not crash, ended or still running. Adoption: share of the last 7 days' sessions.">
        <Async resource={health} empty={<EmptyState title="No versions yet">Sessions and reports name their game version.</EmptyState>} isEmpty={(h) => h.versions.length === 0}>
          {(h) => (
            <>
              <VersionBars versions={h.versions} />
              <Table
                caption="Release health per version"
                rows={h.versions}
                rowKey={(v) => v.version}
                columns={[
                  { key: 'v', header: 'Version', render: (v) => <a href={`?version=${encodeURIComponent(v.version)}`}>{v.version}</a> },
                  { key: 'c', header: 'Crash-free', render: (v) => percent(v.crash_free_rate) },
                  { key: 's', header: 'Sessions', render: (v) => count(v.sessions) },
                  { key: 'e', header: 'Events', render: (v) => count(v.events) },
                  { key: 'r', header: 'New reports', render: (v) => count(v.reports) },
                  { key: 'p', header: 'Players', render: (v) => count(v.players) },
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
        <Section title={`Version ${version}`} description="All time, then its last 30 days (UTC) and its largest crash groups.">
          <Async resource={one}>{(v) => <VersionDetails slug={slug} v={v} />}</Async>
        </Section>
      )}
    </AnalyticsFrame>
  )
}
