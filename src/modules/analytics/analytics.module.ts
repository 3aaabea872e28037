import type { DomainModule } from '../module'
import { analyticsJobs } from './analytics.jobs'
import { analyticsRoutes } from './analytics.routes'
import { playersRoutes } from './players.routes'
import { telemetryRoutes } from './telemetry.routes'

/** Spec 4.11 analytics, read from rollups kept by triggers and a per-minute cursor job. */
export const analyticsModule: DomainModule = {
  name: 'analytics',
  routes: (deps) => analyticsRoutes(deps).use(playersRoutes(deps)).use(telemetryRoutes(deps)),
  jobs: analyticsJobs,
}
