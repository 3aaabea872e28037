import type { DomainModule } from '../module'
import { reportsRoutes } from './reports.routes'

export const reportsModule: DomainModule = { name: 'reports', routes: reportsRoutes }
