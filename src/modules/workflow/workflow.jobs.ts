import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { overdueSchedule } from './due-dates.jobs'

/** Overdue notices every five minutes. */
export const workflowJobs = (deps: AppDeps): DomainJobs => ({ schedules: [overdueSchedule(deps)] })
