import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { EventSubscriber } from '../../events/domain-events'
import { projects } from '../projects/projects.table'
import { PRIORITIES, type Priority } from '../reports/reports.table'
import { enqueueDelivery } from './integrations.delivery'
import { integrationDeliveries, integrationLinks, integrations } from './integrations.table'
import { PROVIDERS } from './providers/catalog'
import type { DeliveryPayload } from './providers/provider.types'

/** Actions that follow up on what a connection did for the report before (resolve an incident, move a filed issue). */
const FOLLOW_UPS = new Set(['resolve', 'move'])

/** True when a report of `priority` is at or above `min` (critical is the highest). */
export const atOrAbove = (priority: unknown, min: Priority) => PRIORITIES.indexOf(priority as Priority) !== -1 && PRIORITIES.indexOf(priority as Priority) <= PRIORITIES.indexOf(min)

/**
 * The event subscriber: in the writer's transaction, one delivery (and its job) per action that each
 * active connection of the project subscribed to the event asks for. New events need the report at or
 * above the connection's min_priority; follow-ups (resolving an incident) need an earlier delivery for
 * the report instead, whatever its priority is now. Paused connections get nothing new.
 */
export function integrationsSubscriber(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): EventSubscriber {
  // One prepared single-table lookup per report write; most projects have no integration.
  const anyActive = deps.db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.projectId, sql.placeholder('projectId')), eq(integrations.isActive, true)))
    .prepare()
  return (tx, event) => {
    if (!anyActive.get({ projectId: event.projectId })) return
    const connections = tx.select().from(integrations).where(and(eq(integrations.projectId, event.projectId), eq(integrations.isActive, true))).all()
    const project = tx.select({ id: projects.id, slug: projects.slug, name: projects.name }).from(projects).where(eq(projects.id, event.projectId)).get()!
    const report = (event.type === 'comment_added' ? event.data.report : event.data) as Record<string, unknown>
    const payload: DeliveryPayload = {
      project,
      report,
      ...(event.changes && { changes: event.changes }),
      ...(event.type === 'comment_added' && { comment: (({ report: _r, ...c }) => c)(event.data) }),
      at: deps.clock.now().getTime(),
    }
    for (const c of connections) {
      const provider = PROVIDERS[c.provider]
      if (!provider || !c.eventTypes.includes(event.type)) continue
      for (const action of provider.actionsFor({ type: event.type, report, changes: event.changes })) {
        if (FOLLOW_UPS.has(action)) {
          // A report filed by hand (POST /bugs/{number}/issues) has a link and no earlier delivery.
          const before =
            tx.select({ id: integrationDeliveries.id }).from(integrationDeliveries).where(and(eq(integrationDeliveries.reportId, event.reportId), eq(integrationDeliveries.integrationId, c.id))).get() ??
            tx.select({ id: integrationLinks.id }).from(integrationLinks).where(and(eq(integrationLinks.reportId, event.reportId), eq(integrationLinks.integrationId, c.id))).get()
          if (!before) continue
        } else if (!atOrAbove(report.priority, c.minPriority)) continue
        enqueueDelivery(deps, tx, { integrationId: c.id, event: event.type, action, reportId: event.reportId, payload })
      }
    }
  }
}
