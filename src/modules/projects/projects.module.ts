import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const projectsModule: DomainModule = {
  name: 'projects',
  routes: () => new Elysia(),
}
