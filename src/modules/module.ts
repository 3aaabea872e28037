import type { Elysia } from 'elysia'
import type { AppDeps } from '../app-deps'
import type { DatabaseParts } from '../db/post-migrate'
import type { DomainJobs } from '../jobs/jobs.types'

/** One domain's contribution: API routes (mounted under /api and /api/v1), jobs, event subscribers. */
export interface DomainModule {
  name: string
  routes?: (deps: AppDeps) => Elysia<any, any, any, any, any, any, any>
  /** Routes of an outside protocol, mounted at the root exactly as its clients call them (no `/api/v1` form). */
  rootRoutes?: (deps: AppDeps) => Elysia<any, any, any, any, any, any, any>
  jobs?: (deps: AppDeps) => DomainJobs
  /** Subscribes to domain events; called once per app. */
  subscribe?: (deps: AppDeps) => void
  /** SQL beside the domain's tables (triggers, FTS) and its backfills, applied after migrations. */
  database?: DatabaseParts
}
