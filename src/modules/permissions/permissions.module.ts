import type { DomainModule } from '../module'
import { permissionsRoutes } from './permissions.routes'

export const permissionsModule: DomainModule = {
  name: 'permissions',
  routes: permissionsRoutes,
}
