import type { DomainModule } from '../module'
import { teamRoutes } from './team.routes'

export const teamModule: DomainModule = {
  name: 'team',
  routes: teamRoutes,
}
