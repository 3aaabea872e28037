import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { digestHandler, digestSchedule } from './notifications.digest'
import { fanoutHandler } from './notifications.fanout'

/** Event fan-out and the weekly digest. */
export const notificationsJobs = (deps: AppDeps): DomainJobs => ({
  handlers: [fanoutHandler(deps), digestHandler(deps)],
  schedules: [digestSchedule(deps)],
})
