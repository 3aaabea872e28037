import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { AlertFiredHook } from '../workflow/alerts.jobs'
import { projects } from '../projects/projects.table'
import { enqueueDelivery } from './integrations.delivery'
import { integrations } from './integrations.table'
import { PROVIDERS } from './providers/catalog'

/**
 * Posts a workflow alert rule's firing to the project's active connections whose provider takes
 * `alert` (the chat providers), in the firing's transaction. Alert rules are set up on purpose, so
 * no event subscription is needed; pausing a connection stops them like everything else.
 */
export function alertFiringPoster(deps: Pick<AppDeps, 'jobs' | 'clock' | 'config'>): AlertFiredHook {
  return (tx, firing) => {
    const connections = tx.select().from(integrations).where(and(eq(integrations.projectId, firing.projectId), eq(integrations.isActive, true))).all()
    if (!connections.length) return
    const project = tx.select({ id: projects.id, slug: projects.slug, name: projects.name }).from(projects).where(eq(projects.id, firing.projectId)).get()!
    const summary = { title: `Alert in ${project.name}`, lines: [firing.text], link: `${deps.config.publicUrl}/projects/${project.slug}/reports` }
    for (const c of connections) {
      for (const action of PROVIDERS[c.provider]?.actionsFor({ type: 'alert' }) ?? []) {
        enqueueDelivery(deps, tx, { integrationId: c.id, event: 'alert', action, reportId: null, payload: { project, summary, at: deps.clock.now().getTime() } })
      }
    }
  }
}
