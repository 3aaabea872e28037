import type { DomainModule } from '../module'
import { changelogRoutes } from './changelog.routes'

export const changelogModule: DomainModule = { name: 'changelog', routes: changelogRoutes }
