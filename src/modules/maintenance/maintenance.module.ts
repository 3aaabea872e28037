import type { DomainModule } from '../module'
import { maintenanceRoutes } from './maintenance.routes'

export const maintenanceModule: DomainModule = { name: 'maintenance', routes: maintenanceRoutes }
