import type { DomainModule } from '../module'
import { attachmentsRoutes } from './attachments.routes'

export const attachmentsModule: DomainModule = { name: 'attachments', routes: attachmentsRoutes }
