import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Chart, Section } from '../components'
import type { RouteProps } from '../router'
import { AnalyticsFrame } from './AnalyticsFrame'
import { BadDeployCard } from './Releases'
import { daySeconds, percent, ratePoint } from './format'
import type { CrashAnalytics, Dashboard, Usage } from './types'

/** `/projects/:slug/analytics`: usage, the crash-free trend, the bad-deploy verdict and the account's report trends. */
export function AnalyticsOverview({ params }: RouteProps) {
  const slug = params.slug!
  const usage = useApi<Usage>(projectPath(slug, '/usage'))
  const crash = useApi<CrashAnalytics>(projectPath(slug, '/crash-analytics'), { query: { days: 30 } })
  const dash = useApi<Dashboard>('/analytics/dashboard')
  return (
    <AnalyticsFrame slug={slug} title="Analytics">
      <Section title="Volume" description="Reports filed and sessions started (UTC days, today included).">
        <Async resource={usage}>
          {(u) => (
            <dl class="stats">
              {(['today', 'last_7_days', 'last_30_days'] as const).map((k) => (
                <div key={k}>
                  <dt>{k === 'today' ? 'Today' : k === 'last_7_days' ? 'Last 7 days' : 'Last 30 days'}</dt>
                  <dd>
                    {u.reports[k]} reports · {u.sessions[k]} sessions
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </Async>
      </Section>
      <Section title="Crash-free sessions" description="Ended sessions that did not crash ÷ ended sessions, per day over 30 days.">
        <Async resource={crash}>
          {(c) => (
            <>
              <p>
                Last 30 days: <strong>{percent(c.totals.crash_free_rate)}</strong> of {c.totals.ended} ended sessions; {c.totals.crash_reports} crash reports.
              </p>
              <Chart
                title="Crash-free rate (%) and sessions per day"
                x={daySeconds(c.daily.map((d) => d.day))}
                series={[
                  { label: 'Crash-free %', values: c.daily.map((d) => ratePoint(d.crash_free_rate)) },
                  { label: 'Sessions', values: c.daily.map((d) => d.sessions) },
                ]}
              />
            </>
          )}
        </Async>
      </Section>
      <BadDeployCard slug={slug} />
      <Section title="All projects" description="Reports filed and resolved per day across your account's projects.">
        <Async resource={dash}>
          {(d) => (
            <Chart
              title="Reports filed and resolved per day"
              x={daySeconds(d.daily.map((x) => x.day))}
              series={[
                { label: 'New', values: d.daily.map((x) => x.new) },
                { label: 'Resolved', values: d.daily.map((x) => x.resolved) },
              ]}
            />
          )}
        </Async>
      </Section>
    </AnalyticsFrame>
  )
}
