import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { activeBanner } from './maintenance.service'

export const maintenanceRoutes = (deps: AppDeps) =>
  new Elysia().get('/maintenance/active', () => activeBanner(deps.db, deps.clock.now()), {
    detail: { tags: ['Public'], summary: 'The maintenance banner in effect, if any' },
  })
