import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const teamModule: DomainModule = {
  name: 'team',
  routes: () => new Elysia(),
}
