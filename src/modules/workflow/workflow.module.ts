import type { DomainModule } from '../module'
import { slaSubscriber } from './sla.service'
import { workflowJobs } from './workflow.jobs'
import { workflowRoutes } from './workflow.routes'
import { workflowSettingsRoutes } from './workflow-settings.routes'

export const workflowModule: DomainModule = {
  name: 'workflow',
  routes: (deps) => workflowRoutes(deps).use(workflowSettingsRoutes(deps)),
  jobs: workflowJobs,
  subscribe: (deps) => deps.events.subscribe(slaSubscriber(deps)),
}
