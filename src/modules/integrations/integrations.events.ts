import type { AppDeps } from '../../app-deps'
import type { EventSubscriber } from '../../events/domain-events'
import { projectCardOf } from '../projects/projects.repository'
import { PRIORITIES, type Priority } from '../reports/reports.types'
import { queueDelivery } from './integrations.delivery'
import { createIntegrationsRepository, integrationEventStatements } from './integrations.repository'
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
  return async (tx, event) => {
    const statements = integrationEventStatements(tx)
    if (!(await statements.anyActive(event.projectId))) return
    const connections = await createIntegrationsRepository({ db: tx }).active(event.projectId)
    const project = (await projectCardOf(tx, event.projectId))!
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
          if (!(await statements.workedOn(c.id, event.reportId))) continue
        } else if (!atOrAbove(report.priority, c.minPriority)) continue
        await queueDelivery(deps, { integrationId: c.id, event: event.type, action, reportId: event.reportId, payload })
      }
    }
  }
}
