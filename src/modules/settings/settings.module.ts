import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const settingsModule: DomainModule = {
  name: 'settings',
  routes: () => new Elysia(),
}
