import type { DomainModule } from '../module'
import { settingsRoutes } from './settings.routes'

export const settingsModule: DomainModule = { name: 'settings', routes: settingsRoutes }
