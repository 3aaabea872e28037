import { Cron } from 'croner'
import { eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { loopGuard, type LoopGuard } from '../lib/background'
import type { Clock } from '../lib/clock'
import { MINUTE } from '../lib/clock'
import { randomToken } from '../lib/ids'
import type { Logger } from '../lib/logger'
import { runnerStatements, type RunnerStatements } from './jobs.statements'
import { BUSY_CLAIM_INTERVAL_MS } from './request-pressure'
import { jobs } from './jobs.table'
import { DeferJob, type JobHandler, type Schedule } from './jobs.types'

const DEFAULT_TIMEOUT = 30_000
/** A crashed runner's jobs are reclaimed this long after their timeout. */
const LEASE_GRACE = 30_000

/** 1, 5, 25, 125 minutes: the retry delays of spec section 6, used for every kind unless it says otherwise. */
export const defaultBackoff = (attempt: number) => 5 ** Math.min(attempt - 1, 3) * MINUTE

export interface RunnerOptions {
  db: Db
  clock: Clock
  logger: Logger
  handlers: JobHandler[]
  schedules?: Schedule[]
  /** Jobs run at once; one slow job does not hold up the others. */
  concurrency?: number
  /** True while the request thread is behind: jobs are then claimed one at a time, at a trickle. */
  busy?: () => boolean
}

/**
 * Claims due jobs with a lease, runs their handler under a timeout, and records the outcome:
 * done, rescheduled by the kind's backoff, or failed after its last attempt. A job whose lease
 * expired (its runner crashed) is due again, so work resumes after a restart.
 */
export class JobRunner {
  readonly owner = `runner-${process.pid}-${randomToken(6)}`
  private handlers = new Map<string, JobHandler>()
  private running = new Set<Promise<void>>()
  /** Schedule ticks in progress: `stop` waits for them too (an async one may still use the database). */
  private ticking = new Set<Promise<unknown>>()
  private crons: Cron[] = []
  private draining = false
  private stopped = false
  private refillQueued = false
  private lastClaimAt = 0
  private delayedPump: ReturnType<typeof setTimeout> | null = null

  private statements: RunnerStatements
  /** The polling loop and every schedule run through it: a failing tick is logged, never fatal. */
  private guard: LoopGuard
  /** Claims due jobs; from the poll, a delayed claim and the refill after a job ends alike. */
  private claimTurn: () => void
  /** Runs a claimed job; recording its outcome can fail too (the database is gone), and that is logged. */
  private run: (job: typeof jobs.$inferSelect) => Promise<void>

  constructor(private opts: RunnerOptions) {
    for (const h of opts.handlers) this.handlers.set(h.kind, h)
    this.statements = runnerStatements(opts.db, [...this.handlers.keys()])
    this.guard = loopGuard(opts)
    this.claimTurn = this.guard('jobs.claim', () => this.pump())
    this.run = this.guard('jobs.run', (job: typeof jobs.$inferSelect) => this.execute(job))
  }

  /** Claims what is due now (up to the free slots) and waits for those jobs; returns how many ran. */
  async tick(): Promise<number> {
    const free = (this.opts.concurrency ?? 8) - this.running.size
    if (free <= 0 || this.stopped) return 0
    const claimed = this.claim(free)
    await Promise.all(claimed.map((job) => this.track(this.run(job))))
    return claimed.length
  }

  /** Runs ticks until nothing is due; tests use it after moving the clock. */
  async drain(): Promise<number> {
    let total = 0
    for (let n = await this.tick(); n > 0; n = await this.tick()) total += n
    return total
  }

  /**
   * Frees the leases of jobs that were running when the previous server process died, so they run
   * again at once instead of after their lease expires. Only for start-up: one server owns a data dir.
   */
  reclaimOrphans(): number {
    const now = this.opts.clock.now()
    return this.opts.db
      .update(jobs)
      .set({ status: 'pending', leaseOwner: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
      .where(eq(jobs.status, 'running'))
      .returning({ id: jobs.id })
      .all().length
  }

  /** Starts the polling loop and the domain schedules. */
  start(): void {
    const poll = new Cron('* * * * * *', { protect: true }, this.claimTurn)
    this.crons.push(poll)
    for (const s of this.opts.schedules ?? []) {
      this.crons.push(
        new Cron(s.pattern, { protect: true, name: s.name }, async () => {
          const tick = this.runSchedule(s)
          this.ticking.add(tick)
          await tick.finally(() => this.ticking.delete(tick))
        }),
      )
    }
  }

  /** One tick of a schedule; false when it was skipped to leave the CPU to requests. */
  async runSchedule(s: Schedule): Promise<boolean> {
    if (s.yieldsToRequests && this.opts.busy?.()) return false
    await this.guard(`schedule ${s.name}`, s.run)()
    return true
  }

  /** Stops claiming and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const c of this.crons) c.stop()
    if (this.delayedPump) clearTimeout(this.delayedPump)
    await Promise.allSettled([...this.running, ...this.ticking])
  }

  /** Starts jobs in the free slots without waiting for them, so a hung job never blocks the loop. */
  private pump(): void {
    if (this.draining || this.stopped) return
    this.draining = true
    try {
      let free = (this.opts.concurrency ?? 8) - this.running.size
      if (free > 0 && this.opts.busy?.()) {
        const wait = this.lastClaimAt + BUSY_CLAIM_INTERVAL_MS - performance.now()
        if (wait > 0) return this.pumpLater(wait)
        free = 1
        this.pumpLater(BUSY_CLAIM_INTERVAL_MS)
      }
      this.lastClaimAt = performance.now()
      if (free > 0) for (const job of this.claim(free)) void this.track(this.run(job))
    } finally {
      this.draining = false
    }
  }

  private pumpLater(ms: number): void {
    if (this.delayedPump || this.stopped) return
    this.delayedPump = setTimeout(() => {
      this.delayedPump = null
      this.claimTurn()
    }, ms)
  }

  private track(p: Promise<void>): Promise<void> {
    this.running.add(p)
    return p.finally(() => {
      this.running.delete(p)
      // A started runner refills freed slots now, not at the next poll, so a backlog drains at the handlers' pace;
      // one refill per event-loop turn, so jobs finishing together share one claim transaction.
      if (this.crons.length > 0 && !this.refillQueued) {
        this.refillQueued = true
        setImmediate(() => {
          this.refillQueued = false
          this.claimTurn()
        })
      }
    })
  }

  private claim(limit: number) {
    if (this.handlers.size === 0) return []
    const st = this.statements
    const now = this.opts.clock.now().getTime()
    return this.opts.db.transaction(() => {
      const expired = st.expired.all({ now, n: limit })
      const due = limit > expired.length ? [...expired, ...st.pending.all({ now, n: limit - expired.length })] : expired
      return due.map(({ id, kind }) => {
        const timeout = this.handlers.get(kind)?.timeoutMs ?? DEFAULT_TIMEOUT
        return st.lease.all({ id, owner: this.owner, expires: now + timeout + LEASE_GRACE, now })[0]!
      })
    })
  }

  private async execute(job: typeof jobs.$inferSelect): Promise<void> {
    const handler = this.handlers.get(job.kind)!
    const attempt = job.attempts + 1
    const timeout = handler.timeoutMs ?? DEFAULT_TIMEOUT
    const ac = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    const log = this.opts.logger.child({ job: job.id, kind: job.kind, attempt })
    try {
      await Promise.race([
        handler.run(job.payload, { jobId: job.id, attempt, maxAttempts: job.maxAttempts, signal: ac.signal }),
        new Promise((_, reject) => {
          timer = setTimeout(() => {
            ac.abort()
            reject(new Error(`timed out after ${timeout} ms`))
          }, timeout)
        }),
      ])
      this.finish(job.id, { status: 'done', attempts: attempt, lastError: null })
    } catch (err) {
      const now = this.opts.clock.now().getTime()
      if (err instanceof DeferJob) {
        this.finish(job.id, { status: 'pending', runAt: new Date(now + err.delayMs) })
        return
      }
      const message = err instanceof Error ? err.message : String(err)
      if (attempt >= job.maxAttempts) {
        log.warn('job failed for good', { error: message })
        this.finish(job.id, { status: 'failed', attempts: attempt, lastError: message })
      } else {
        const delay = (handler.backoffMs ?? defaultBackoff)(attempt)
        log.info('job will retry', { error: message, in_ms: delay })
        this.finish(job.id, { status: 'pending', attempts: attempt, lastError: message, runAt: new Date(now + delay) })
      }
    } finally {
      clearTimeout(timer)
    }
  }

  /** Records a job's outcome; only while this runner still holds its lease. */
  private finish(id: number, o: { status: 'done' | 'pending' | 'failed'; attempts?: number; lastError?: string | null; runAt?: Date }): void {
    this.statements.finish.run({
      id,
      owner: this.owner,
      status: o.status,
      attempts: o.attempts ?? null,
      keepError: o.lastError === undefined,
      error: o.lastError ?? null,
      runAt: o.runAt?.getTime() ?? null,
      now: this.opts.clock.now().getTime(),
    })
  }
}
