import type { DomainModule } from '../module'
import { autoIssueSubscriber, fileIssueHandler } from './git.issues'
import { gitRoutes } from './git.routes'

export const gitModule: DomainModule = {
  name: 'git',
  routes: gitRoutes,
  jobs: (deps) => ({ handlers: [fileIssueHandler(deps)] }),
  subscribe: (deps) => deps.events.subscribe(autoIssueSubscriber(deps)),
}
