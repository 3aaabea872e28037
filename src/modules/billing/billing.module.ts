import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const billingModule: DomainModule = {
  name: 'billing',
  routes: () => new Elysia(),
}
