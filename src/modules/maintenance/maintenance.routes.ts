import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { activeBanner } from './maintenance.service'
import { serverInfo } from './server-info'

export const maintenanceRoutes = (deps: AppDeps) =>
  new Elysia()
    .get('/maintenance/active', () => activeBanner(deps.db, deps.clock.now()), {
      detail: { tags: ['Public'], summary: 'The maintenance banner in effect, if any' },
    })
    .get('/server-info', () => serverInfo(deps.config, deps.mailer), {
      detail: { tags: ['Public'], summary: 'Server version, whether billing and mail (SMTP) are configured and which social sign-ins are offered' },
    })
