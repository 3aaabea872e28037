import { Elysia } from 'elysia'
import type { DomainModule } from '../module'

export const commentsModule: DomainModule = {
  name: 'comments',
  routes: () => new Elysia(),
}
