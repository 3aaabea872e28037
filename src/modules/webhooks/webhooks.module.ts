import type { DomainModule } from '../module'
import { fanoutEnqueuer } from './webhooks.fanout'
import { webhooksJobs } from './webhooks.jobs'
import { webhooksRoutes } from './webhooks.routes'

export const webhooksModule: DomainModule = {
  name: 'webhooks',
  routes: webhooksRoutes,
  jobs: webhooksJobs,
  subscribe: (deps) => deps.events.subscribe(fanoutEnqueuer(deps)),
}
