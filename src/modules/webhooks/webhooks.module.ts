import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const webhooksModule: DomainModule = {
  name: 'webhooks',
  routes: () => new Elysia(),
}
