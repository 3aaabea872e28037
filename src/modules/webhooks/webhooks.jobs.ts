import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { deliveryHandler } from './webhooks.delivery'
import { fanoutHandler } from './webhooks.fanout'

/** The webhooks domain's job handlers: an event's fan-out to its webhooks, then each delivery. */
export const webhooksJobs = (deps: AppDeps): DomainJobs => ({ handlers: [fanoutHandler(deps), deliveryHandler(deps)] })
