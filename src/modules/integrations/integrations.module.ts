import type { DomainModule } from '../module'
import { integrationsSubscriber } from './integrations.events'
import { integrationsJobs } from './integrations.jobs'
import { integrationsRoutes } from './integrations.routes'

export const integrationsModule: DomainModule = {
  name: 'integrations',
  routes: integrationsRoutes,
  jobs: integrationsJobs,
  subscribe: (deps) => {
    // Without GLITCHBOX_SECRET_KEY, secrets.key is made on first start (mode 0600), before any connection needs it.
    deps.secrets.key()
    deps.events.subscribe(integrationsSubscriber(deps))
  },
}
