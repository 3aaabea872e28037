import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { digestSchedule } from './integrations.digest'
import { deliveryHandler } from './integrations.delivery'

/** Every outgoing integration call as a retried job; the daily chat digest at 09:00 enqueues its posts. */
export const integrationsJobs = (deps: AppDeps): DomainJobs => ({ handlers: [deliveryHandler(deps)], schedules: [digestSchedule(deps)] })
