import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const permissionsModule: DomainModule = {
  name: 'permissions',
  routes: () => new Elysia(),
}
