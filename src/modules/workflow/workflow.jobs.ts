import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { alertsSchedule } from './alerts.jobs'
import { overdueSchedule } from './due-dates.jobs'
import { slaNoticeHandler, slaSchedule } from './sla.jobs'

/** Overdue notices and alert rules every five minutes, SLA breaches every minute (each breach's notice is a job). */
export const workflowJobs = (deps: AppDeps): DomainJobs => ({ handlers: [slaNoticeHandler(deps)], schedules: [overdueSchedule(deps), slaSchedule(deps), alertsSchedule(deps)] })
