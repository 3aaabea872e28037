import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { deliveryHandler } from './webhooks.delivery'

/** The webhooks domain's job handlers. */
export const webhooksJobs = (deps: AppDeps): DomainJobs => ({ handlers: [deliveryHandler(deps)] })
