import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const changelogModule: DomainModule = {
  name: 'changelog',
  routes: () => new Elysia(),
}
