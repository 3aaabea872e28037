import { and, asc, desc, eq, gte, inArray, isNull, like, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Schedule } from '../../jobs/jobs.types'
import { DAY } from '../../lib/clock'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { derivedId } from '../../lib/ids'
import { enqueueDelivery } from './integrations.delivery'
import { integrations } from './integrations.table'
import type { DeliveryPayload } from './providers/provider.types'
import { reportPageUrl } from '../reports/report-links'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'jobs' | 'config'>

/** A project's last day: new reports by priority, the most urgent of them, and how many are open now. */
function summaryOf(deps: Deps, project: { id: string; slug: string; name: string }, since: Date): NonNullable<DeliveryPayload['summary']> {
  const live = and(eq(reports.projectId, project.id), isNull(reports.deletedAt))
  const byPriority = deps.db
    .select({ priority: reports.priority, n: sql<number>`count(*)` })
    .from(reports)
    .where(and(live, gte(reports.createdAt, since)))
    .groupBy(reports.priority)
    .all()
  const open = deps.db.select({ n: sql<number>`count(*)` }).from(reports).where(and(live, inArray(reports.status, ['open', 'in_progress']))).get()!.n
  const top = deps.db
    .select({ number: reports.reportNumber, title: reports.title, priority: reports.priority })
    .from(reports)
    .where(and(live, gte(reports.createdAt, since)))
    .orderBy(asc(reports.priorityRank), desc(reports.seq))
    .limit(5)
    .all()
  const total = byPriority.reduce((s, r) => s + r.n, 0)
  const lines = [
    `${total} new report${total === 1 ? '' : 's'} in the last 24 hours${total ? ` (${byPriority.map((r) => `${r.n} ${r.priority}`).join(', ')})` : ''}; ${open} open or in progress.`,
    ...top.map((r) => `• #${r.number} [${r.priority}] ${r.title} — ${reportPageUrl(deps.config.publicUrl, project.slug, r.number)}`),
  ]
  return { title: `Daily digest for ${project.name}`, lines, link: `${deps.config.publicUrl}/projects/${project.slug}/reports` }
}

/** Enqueues today's digest post for every active chat connection subscribed to `digest` (once per connection and day). */
export function enqueueDigests(deps: Deps): number {
  const now = deps.clock.now()
  const day = now.toISOString().slice(0, 10)
  const rows = deps.db
    .select({ id: integrations.id, project: { id: projects.id, slug: projects.slug, name: projects.name } })
    .from(integrations)
    .innerJoin(projects, eq(projects.id, integrations.projectId))
    .where(and(eq(integrations.isActive, true), like(integrations.eventTypes, '%"digest"%')))
    .all()
  for (const r of rows) {
    const summary = summaryOf(deps, r.project, new Date(now.getTime() - DAY))
    deps.db.transaction((tx) =>
      enqueueDelivery(deps, tx, { id: derivedId(`digest:${day}`, r.id), integrationId: r.id, event: 'digest', action: 'post', reportId: null, payload: { project: r.project, summary, at: now.getTime() } }),
    )
  }
  return rows.length
}

/** 09:00 server time every day. */
export const digestSchedule = (deps: Deps): Schedule => ({ name: 'integrations.digest', pattern: '0 9 * * *', run: () => void enqueueDigests(deps) })
