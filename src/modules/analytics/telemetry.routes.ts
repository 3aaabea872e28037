import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { requireFeature } from '../auth/plans'
import { daysQuery, logStackQuery } from './analytics.schemas'
import { perfSummary, reportPerf, reportReplays } from './perf.service'
import { eventDetails, eventsByDay, eventsSummary, logStack } from './telemetry.service'

const tags = ['Analytics']
const view = 'analytics.view' as const

/** Spec 4.11 telemetry, log stack, performance and replays. */
export const telemetryRoutes = (deps: AppDeps) => {
  const now = () => deps.clock.now()
  return new Elysia()
    .use(authPlugin(deps))
    .get(
      '/projects/:slug/events',
      ({ project, account, query }) => {
        requireFeature(account.plan, 'events')
        return eventsByDay(deps.db, project.id, now(), query.days)
      },
      { project: view, query: daysQuery, detail: { tags, summary: 'Event names with counts per day (days 1–90, default 30; tier 2)' } },
    )
    .get('/projects/:slug/events/summary', ({ project, query }) => eventsSummary(deps.db, project.id, now(), query.days), {
      project: view,
      query: daysQuery,
      detail: { tags, summary: 'Top events, totals and session-days' },
    })
    .get('/projects/:slug/events/:name/details', ({ project, params, query }) => eventDetails(deps.db, project.id, now(), params.name, query.days), {
      project: view,
      query: daysQuery,
      detail: { tags, summary: 'The newest 50 raw events of a name with their data' },
    })
    .get(
      '/projects/:slug/log-stack',
      ({ project, account, query }) => {
        requireFeature(account.plan, 'log_stack')
        return logStack(deps.db, project.id, now(), query.days, query.page)
      },
      { project: view, query: logStackQuery, detail: { tags, summary: 'Recent-log lines of auto-filed reports grouped by normalized text (days 1, 7, 30 or 90; tier 2)' } },
    )
    .get('/projects/:slug/bugs/:number/perf', ({ project, params }) => reportPerf(deps, project.id, params.number), {
      project: view,
      detail: { tags, summary: "A report's performance snapshots with p50/p95" },
    })
    .get('/projects/:slug/perf-summary', ({ project }) => perfSummary(deps, project.id), {
      project: view,
      detail: { tags, summary: 'fps, frame time, memory and load time p50/p95 by version and platform; scene-load samples' },
    })
    .get('/projects/:slug/bugs/:number/replays', ({ project, account, params }) => reportReplays(deps, account, project.id, params.number), {
      project: view,
      detail: { tags, summary: "A report's session replays with file URLs (tier 3)" },
    })
}
