import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Chart, Section } from '../components'
import type { RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import { BadDeployCard } from './BadDeployCard'
import { count, counted, daySeconds, percent, ratePoint } from './format'
import type { BadDeploy, CrashAnalytics, Dashboard, Usage } from './types'

const WINDOWS = [
  ['today', 'Today'],
  ['last_7_days', 'Last 7 days'],
  ['last_30_days', 'Last 30 days'],
] as const

/** `/projects/:slug/analytics`: the bad-deploy verdict, volume, the crash-free trend and the report trends, all of this project only; one quantity per chart. */
export function AnalyticsOverview({ params }: RouteProps) {
  const slug = params.slug!
  const verdict = useApi<BadDeploy>(projectPath(slug, '/bad-deploy'))
  const usage = useApi<Usage>(projectPath(slug, '/usage'))
  const crash = useApi<CrashAnalytics>(projectPath(slug, '/crash-analytics'), { query: { days: 30 } })
  const dash = useApi<Dashboard>(projectPath(slug, '/dashboard'))
  const all = [verdict, usage, crash, dash]
  return (
    <AnalyticsFrame slug={slug} title="Analytics" fresh={{ at: all.map((r) => r.data.value?.fresh_as_of), refresh: () => all.forEach((r) => void r.reload()) }}>
      <BadDeployCard resource={verdict} />
      <Section title="Volume" description="Reports filed and sessions started (UTC days, today included).">
        <Async resource={usage}>
          {(u) => (
            <>
            {u.sdk_budget && u.sdk_budget.refused_last_24_hours > 0 && (
              <p class="notice warning">
                {counted(u.sdk_budget.refused_last_24_hours, 'report')} refused in the last 24 h (rate limit: {u.sdk_budget.per_minute} a minute per player address). Players behind one address (a LAN
                playtest, a café) share it: raise <code>{u.sdk_budget.setting}</code> (README "Budgets").
              </p>
            )}
            <dl class="stats">
              {WINDOWS.map(([k, label]) => (
                <div key={k}>
                  <dt>{label}</dt>
                  <dd>
                    {counted(u.reports[k], 'report')} · {counted(u.sessions[k], 'session')}
                  </dd>
                </div>
              ))}
            </dl>
            </>
          )}
        </Async>
      </Section>
      <Section title="Crash-free sessions" description="Sessions that did not crash ÷ sessions, ended or still running, per UTC day over 30 days.">
        <Async resource={crash}>
          {(c) => {
            const x = daySeconds(c.daily.map((d) => d.day))
            return (
              <>
                <p>
                  Last 30 days: <strong>{percent(c.totals.crash_free_rate)}</strong> of {counted(c.totals.sessions, 'session')} did not crash; {counted(c.totals.crashes, 'crash', 'crashes')} and {counted(c.totals.errors, 'handled error')} in {counted(c.totals.crash_reports, 'new crash or error report')}.
                </p>
                <div class="analytics-grid">
                  <Chart title="Crash-free sessions per day (%)" unit="%" x={x} series={[{ label: 'Crash-free %', values: c.daily.map((d) => ratePoint(d.crash_free_rate)) }]} />
                  <Chart title="Sessions per day" bars x={x} series={[{ label: 'Sessions', values: c.daily.map((d) => d.sessions) }]} />
                </div>
              </>
            )
          }}
        </Async>
      </Section>
      <Section title="Reports" description="Reports filed and resolved, and submissions received, per UTC day in this project.">
        <Async resource={dash}>
          {(d) => (
            <>
              <p>
                {count(d.daily.reduce((s, x) => s + x.new, 0))} filed and {count(d.daily.reduce((s, x) => s + x.resolved, 0))} resolved in 30 days;{' '}
                {count(d.daily.reduce((s, x) => s + x.events, 0))} submissions received, {count(d.daily.reduce((s, x) => s + x.crashes, 0))} of them crashes and{' '}
                {count(d.daily.reduce((s, x) => s + x.crash_events - x.crashes, 0))} handled errors (a crash hit 20 times counts 20).
              </p>
              <Chart
                title="Reports filed and resolved per day"
                x={daySeconds(d.daily.map((x) => x.day))}
                series={[
                  { label: 'Filed', values: d.daily.map((x) => x.new) },
                  { label: 'Resolved', values: d.daily.map((x) => x.resolved) },
                ]}
              />
              <Chart
                title="Submissions received per day"
                bars
                x={daySeconds(d.daily.map((x) => x.day))}
                series={[
                  { label: 'All submissions', values: d.daily.map((x) => x.events) },
                  { label: 'Crashes', values: d.daily.map((x) => x.crashes) },
                ]}
              />
            </>
          )}
        </Async>
      </Section>
    </AnalyticsFrame>
  )
}
