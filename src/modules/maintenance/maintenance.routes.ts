import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { createAuthRepository } from '../auth/auth.repository'
import { activeBanner } from './maintenance.service'
import { serverInfo } from './server-info'

export const maintenanceRoutes = (deps: AppDeps) =>
  new Elysia()
    .get('/maintenance/active', () => activeBanner(deps.db, deps.clock.now()), {
      detail: { tags: ['Public'], summary: 'The maintenance banner in effect, if any' },
    })
    .get('/server-info', async () => serverInfo(deps.config, deps.mailer, await createAuthRepository({ db: deps.db }).anyUser()), {
      detail: { tags: ['Public'], summary: 'Server version, whether anyone has signed up yet, whether billing and mail (SMTP) are configured and which social sign-ins are offered' },
    })
