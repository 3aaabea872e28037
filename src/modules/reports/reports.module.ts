import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const reportsModule: DomainModule = {
  name: 'reports',
  routes: () => new Elysia(),
}
