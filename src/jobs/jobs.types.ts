import type { AppDeps } from '../app-deps'

export interface JobContext {
  jobId: number
  /** 1 on the first run. */
  attempt: number
  maxAttempts: number
  /** Aborted when the job's timeout passes; pass it to fetch. */
  signal: AbortSignal
}

/** Thrown by a handler to be run again later without counting an attempt (e.g. a paused integration). */
export class DeferJob extends Error {
  constructor(readonly delayMs: number) {
    super('deferred')
  }
}

export interface JobHandler<P = any> {
  kind: string
  run(payload: P, ctx: JobContext): Promise<void>
  /** Default 30 s. */
  timeoutMs?: number
  /** Default 5. */
  maxAttempts?: number
  /** Delay before attempt `attempt + 1` after failed attempt `attempt`; default 1, 5, 25, 125 minutes. */
  backoffMs?(attempt: number): number
}

/** A croner pattern whose tick enqueues work (it never does the work itself). */
export interface Schedule {
  name: string
  pattern: string
  run(): Promise<void> | void
  /** Housekeeping that can wait: its ticks are skipped while the request thread is behind (see `RunnerOptions.busy`). */
  yieldsToRequests?: boolean
  /** Work on this process's own resources (its SQLite connection's WAL): runs in every process, not once across nodes. */
  perNode?: boolean
}

/** What a domain contributes to the job system: its handlers and its schedules. */
export interface DomainJobs {
  handlers?: JobHandler[]
  schedules?: Schedule[]
}

export type DomainJobsFactory = (deps: AppDeps) => DomainJobs
