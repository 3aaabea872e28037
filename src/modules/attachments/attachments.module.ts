import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const attachmentsModule: DomainModule = {
  name: 'attachments',
  routes: () => new Elysia(),
}
