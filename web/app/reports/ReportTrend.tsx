import { useEffect, useMemo } from 'preact/hooks'
import { createResource } from '../api/resource'
import { Async, Badge } from '../components'
import { listHref } from './list-query'
import type { ReportTrend as Trend } from './report-types'
import { reportsApi } from './reports-api'
import { Sparkline } from './Sparkline'

/** The mark of an escalating report (events in the last hour well above its hourly average), on the list and the report page. */
export function EscalatingBadge() {
  return (
    <span title="Events in the last hour: at least 10, and more than 3 times its hourly average over the 24 hours before">
      <Badge tone="danger">Escalating</Badge>
    </span>
  )
}

const perHour = (n: number) => `${n.toLocaleString(undefined, { maximumFractionDigits: 2 })} an hour`

/**
 * "Is it getting worse?" for one report: its events per hour over the last 24 hours and per day over
 * the last 30 (by when they happened), the last hour against its hourly average over the day before,
 * and the escalating mark with its rule. Reloaded with the report (`stamp`: a new event changes it).
 */
export function ReportTrend({ slug, number, stamp }: { slug: string; number: number; stamp: string }) {
  const trend = useMemo(() => createResource((signal) => reportsApi.trend(slug, number, signal)), [slug, number, stamp])
  useEffect(() => void trend.reload(), [trend])
  return (
    <section class="card report-trend" aria-labelledby="trend-title">
      <h2 id="trend-title">Is it getting worse?</h2>
      <Async resource={trend} label="Counting events…">
        {(t) => <TrendBody slug={slug} trend={t} />}
      </Async>
    </section>
  )
}

function TrendBody({ slug, trend }: { slug: string; trend: Trend }) {
  return (
    <>
      <p class="trend-verdict">
        {trend.escalating ? <EscalatingBadge /> : <Badge>Not escalating</Badge>}{' '}
        {trend.last_hour.toLocaleString()} event{trend.last_hour === 1 ? '' : 's'} in the last hour, against {perHour(trend.hourly_average)} over the 24 hours before.{' '}
        {trend.escalating && <a href={listHref(slug, { q: 'is:escalating', page: 1 })}>Every escalating report</a>}
      </p>
      <div class="trend-charts">
        <figure>
          <Sparkline counts={trend.hourly.counts} unit="hour" />
          <figcaption class="muted small">Events per hour, last 24 hours</figcaption>
        </figure>
        <figure>
          <Sparkline counts={trend.daily.counts} unit="day" />
          <figcaption class="muted small">Events per day, last 30 days</figcaption>
        </figure>
      </div>
      <p class="muted small">The rule: {trend.rule}.</p>
    </>
  )
}
