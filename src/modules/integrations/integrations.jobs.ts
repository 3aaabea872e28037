import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { onAlertFired } from '../workflow/alerts.jobs'
import { alertFiringPoster } from './integrations.alerts'
import { digestSchedule } from './integrations.digest'
import { deliveryHandler } from './integrations.delivery'
import { storeSyncHandler, storeSyncSchedule } from './store-reviews.jobs'

/**
 * Every outgoing integration call as a retried job; the daily chat digest at 09:00 enqueues its posts;
 * store reviews are imported hourly.
 * Alert rules are evaluated where jobs run (the job thread), so their firings are hooked here.
 */
export const integrationsJobs = (deps: AppDeps): DomainJobs => {
  onAlertFired(deps.db, alertFiringPoster(deps))
  return { handlers: [deliveryHandler(deps), storeSyncHandler(deps)], schedules: [digestSchedule(deps), storeSyncSchedule(deps)] }
}
