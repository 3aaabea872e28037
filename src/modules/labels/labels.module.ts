import type { DomainModule } from '../module'
import { labelsRoutes } from './labels.routes'

export const labelsModule: DomainModule = { name: 'labels', routes: labelsRoutes }
