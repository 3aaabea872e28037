import type { DomainModule } from '../module'
import { publicRoutes } from './public.routes'

export const publicModule: DomainModule = { name: 'public', routes: publicRoutes }
