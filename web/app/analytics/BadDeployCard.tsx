import type { Resource } from '../api/resource'
import { Async, Badge, Section, Table } from '../components'
import { count, percent, pValue, verdictBadge } from './format'
import type { BadDeploy } from './types'

const points = (change: number) => `${change > 0 ? '+' : change < 0 ? '−' : ''}${Math.abs(change * 100).toFixed(1)} points`

/** The bad-deploy verdict in words first (the server's `summary`), the statistics behind it on demand. */
export function BadDeployCard({ resource }: { resource: Resource<BadDeploy> }) {
  return (
    <Section title="Latest deploy" description="Does the newest version crash more than the one before it?">
      <Async resource={resource}>
        {(b) => {
          const badge = verdictBadge(b.verdict)
          return (
            <div class="verdict">
              <p class="verdict-summary">
                <Badge tone={badge.tone}>{badge.label}</Badge> {b.summary}
              </p>
              <details class="verdict-stats">
                <summary>How this was decided</summary>
                <p class="small">
                  The two newest versions with at least {b.threshold.min_sessions} sessions each are compared by their crash-free sessions (sessions that did not crash, ended or not) with a
                  two-proportion z-test: a difference counts as real when p &lt; {b.threshold.alpha}.
                </p>
                {b.current && (
                  <Table
                    caption="Versions compared"
                    showCaption
                    rows={[b.current, ...(b.previous ? [b.previous] : [])]}
                    rowKey={(x) => x.version}
                    columns={[
                      { key: 'v', header: 'Version', render: (x) => x.version },
                      { key: 's', header: 'Sessions', render: (x) => count(x.sessions) },
                      { key: 'x', header: 'Crashed', render: (x) => count(x.crashed) },
                      { key: 'c', header: 'Crash-free', render: (x) => percent(x.crash_free_rate) },
                      { key: 'r', header: 'Reports per 100 sessions', render: (x) => x.reports_per_100_sessions },
                    ]}
                  />
                )}
                {b.p_value !== null && b.z !== null && (
                  <p class="small">
                    z = {b.z}, p = {pValue(b.p_value)}. Crash-free change {points(b.crash_free_rate_change ?? 0)}; reports per 100 sessions {b.reports_per_100_change! > 0 ? '+' : ''}
                    {b.reports_per_100_change}.
                  </p>
                )}
              </details>
            </div>
          )
        }}
      </Async>
    </Section>
  )
}
