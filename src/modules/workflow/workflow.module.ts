import type { DomainModule } from '../module'
import { workflowJobs } from './workflow.jobs'
import { workflowRoutes } from './workflow.routes'

export const workflowModule: DomainModule = { name: 'workflow', routes: workflowRoutes, jobs: workflowJobs }
