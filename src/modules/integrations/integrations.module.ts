import type { DomainModule } from '../module'
import { ensureSecretsKey } from './credentials.crypto'
import { integrationsSubscriber } from './integrations.events'
import { integrationsJobs } from './integrations.jobs'
import { integrationsRoutes } from './integrations.routes'

export const integrationsModule: DomainModule = {
  name: 'integrations',
  routes: integrationsRoutes,
  jobs: integrationsJobs,
  subscribe: (deps) => {
    // The credentials key is made on first start (mode 0600), before any connection needs it.
    ensureSecretsKey(deps.config.dataDir)
    deps.events.subscribe(integrationsSubscriber(deps))
  },
}
