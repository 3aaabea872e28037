import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { digestHandler, digestSchedule } from './notifications.digest'
import { fanoutHandler } from './notifications.fanout'
import { newReportsHandler } from './notifications.new-reports'

/** Event fan-out, per-minute mails of game-filed reports and the weekly digest. */
export const notificationsJobs = (deps: AppDeps): DomainJobs => ({
  handlers: [fanoutHandler(deps), newReportsHandler(deps), digestHandler(deps)],
  schedules: [digestSchedule(deps)],
})
