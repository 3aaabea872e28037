import type { DomainModule } from '../module'
import { billingJobs } from './billing.jobs'
import { billingRoutes } from './billing.routes'

export const billingModule: DomainModule = {
  name: 'billing',
  routes: billingRoutes,
  jobs: billingJobs,
}
