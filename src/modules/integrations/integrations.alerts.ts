import type { AppDeps } from '../../app-deps'
import { projectCardOf } from '../projects/projects.repository'
import type { AlertFiredHook } from '../workflow/alerts.jobs'
import { queueDelivery } from './integrations.delivery'
import { createIntegrationsRepository } from './integrations.repository'
import { PROVIDERS } from './providers/catalog'

/**
 * Posts a workflow alert rule's firing to the project's active connections whose provider takes
 * `alert` (the chat providers), in the firing's transaction. Alert rules are set up on purpose, so
 * no event subscription is needed; pausing a connection stops them like everything else.
 */
export function alertFiringPoster(deps: Pick<AppDeps, 'db' | 'jobs' | 'clock' | 'config'>): AlertFiredHook {
  return async (tx, firing) => {
    const connections = await createIntegrationsRepository({ db: tx }).active(firing.projectId)
    if (!connections.length) return
    const project = (await projectCardOf(tx, firing.projectId))!
    const summary = { title: `Alert in ${project.name}`, lines: [firing.text], link: `${deps.config.publicUrl}/projects/${project.slug}/reports` }
    for (const c of connections) {
      for (const action of PROVIDERS[c.provider]?.actionsFor({ type: 'alert' }) ?? []) {
        await queueDelivery(deps, { integrationId: c.id, event: 'alert', action, reportId: null, payload: { project, summary, at: deps.clock.now().getTime() } })
      }
    }
  }
}
