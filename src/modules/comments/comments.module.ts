import type { DomainModule } from '../module'
import { commentsRoutes } from './comments.routes'

export const commentsModule: DomainModule = { name: 'comments', routes: commentsRoutes }
