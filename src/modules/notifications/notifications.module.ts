import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const notificationsModule: DomainModule = {
  name: 'notifications',
  routes: () => new Elysia(),
}
