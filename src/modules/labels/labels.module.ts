import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const labelsModule: DomainModule = {
  name: 'labels',
  routes: () => new Elysia(),
}
