import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const publicModule: DomainModule = {
  name: 'public',
  routes: () => new Elysia(),
}
