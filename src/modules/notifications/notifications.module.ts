import type { DomainModule } from '../module'
import { domainEventSubscriber } from './notifications.events'
import { notificationsJobs } from './notifications.jobs'
import { notificationsRoutes } from './notifications.routes'

export const notificationsModule: DomainModule = {
  name: 'notifications',
  routes: notificationsRoutes,
  jobs: notificationsJobs,
  subscribe: (deps) => deps.events.subscribe(domainEventSubscriber(deps)),
}
