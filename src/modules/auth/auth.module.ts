import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const authModule: DomainModule = {
  name: 'auth',
  routes: () => new Elysia(),
}
