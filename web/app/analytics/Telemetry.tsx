import { projectPath } from '../api/client'
import { useApi } from '../api/resource'
import { Async, Chart, EmptyState, Section, Select, Table, formatDate } from '../components'
import { setQuery, type RouteProps } from '../router'
import { showPlans } from '../session'
import { AnalyticsFrame } from './AnalyticsFrame'
import { daySeconds } from './format'
import type { EventDetails, EventsByDay, EventsSummary } from './types'

const DAY_CHOICES = ['7', '30', '90']

/** `/projects/:slug/analytics/telemetry?days=&event=`: event totals, the top events per day, and one event's newest raw rows. */
export function TelemetryPage({ params, query }: RouteProps) {
  const slug = params.slug!
  const days = DAY_CHOICES.includes(query.days ?? '') ? Number(query.days) : 30
  const summary = useApi<EventsSummary>(projectPath(slug, '/events/summary'), { query: { days } })
  const perDay = useApi<EventsByDay>(projectPath(slug, '/events'), { query: { days } })
  const event = query.event || null
  const details = useApi<EventDetails>(event ? projectPath(slug, `/events/${encodeURIComponent(event)}/details`) : null, { query: { days } })
  return (
    <AnalyticsFrame slug={slug} title="Telemetry">
      <Select label="Period" value={String(days)} onValue={(d: string) => setQuery({ days: d === '30' ? null : d })} options={DAY_CHOICES.map((d) => ({ value: d, label: `Last ${d} days` }))} />
      <Section title="Events" description="Totals and session-days (per day, distinct sessions that sent the event, summed).">
        <Async resource={summary} empty={<EmptyState title="No events yet">Game clients send them to /api/events/track.</EmptyState>} isEmpty={(s) => s.total_events === 0}>
          {(s) => (
            <Table
              caption={`Top events, ${s.total_events} events in all`}
              rows={s.top_events}
              rowKey={(e) => e.name}
              columns={[
                { key: 'n', header: 'Event', render: (e) => <a href={`?days=${days}&event=${encodeURIComponent(e.name)}`}>{e.name}</a> },
                { key: 'c', header: 'Count', render: (e) => e.count },
                { key: 's', header: 'Session-days', render: (e) => e.session_days },
              ]}
            />
          )}
        </Async>
      </Section>
      <Section title="Per day" description={`The five most frequent events${showPlans.value ? ' (tier 2 and up)' : ''}.`}>
        <Async resource={perDay}>
          {(d) =>
            d.events.length === 0 ? (
              <EmptyState title="No events in this period" />
            ) : (
              <Chart title="Events per day" x={daySeconds(d.events[0]!.daily.map((x) => x.day))} series={d.events.slice(0, 5).map((e) => ({ label: e.name, values: e.daily.map((x) => x.count) }))} />
            )
          }
        </Async>
      </Section>
      {event && (
        <Section title={`Newest “${event}” events`}>
          <Async resource={details} empty={<EmptyState title="No raw events kept" />} isEmpty={(d) => d.events.length === 0}>
            {(d) => (
              <Table
                caption={`Newest ${d.events.length} ${event} events`}
                rows={d.events}
                rowKey={(e) => String(e.id)}
                columns={[
                  { key: 't', header: 'When', render: (e) => <span class="nowrap">{formatDate(e.created_at)}</span> },
                  { key: 's', header: 'Session', render: (e) => e.session_token ?? '–' },
                  { key: 'v', header: 'Version', render: (e) => e.game_version ?? '–' },
                  { key: 'd', header: 'Data', render: (e) => <code class="small break">{JSON.stringify(e.data)}</code> },
                ]}
              />
            )}
          </Async>
        </Section>
      )}
    </AnalyticsFrame>
  )
}
