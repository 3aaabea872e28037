import { Cron } from 'croner'
import type { Db } from '../db/client'
import { loopGuard, type LoopGuard } from '../lib/background'
import type { Clock } from '../lib/clock'
import { MINUTE } from '../lib/clock'
import type { Logger } from '../lib/logger'
import { createJobsRepository, type Job, type JobOutcome, type JobsRepository } from './jobs.repository'
import { leaseOwnerGone, newLeaseOwner } from './lease-owner'
import { BUSY_CLAIM_INTERVAL_MS } from './request-pressure'
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
  readonly owner = newLeaseOwner()
  private handlers = new Map<string, JobHandler>()
  private running = new Set<Promise<void>>()
  /** Schedule ticks in progress: `stop` waits for them too (an async one may still use the database). */
  private ticking = new Set<Promise<unknown>>()
  private crons: Cron[] = []
  /** The claim in progress, if any; `pumpAgain` asks it to claim once more when it ends (a slot freed meanwhile). */
  private pumping: Promise<void> | null = null
  private pumpAgain = false
  private stopped = false
  private refillQueued = false
  private lastClaimAt = 0
  private delayedPump: ReturnType<typeof setTimeout> | null = null

  private repo: JobsRepository
  /** How long a lease of each kind lasts: its timeout, then a grace after which a crashed runner's job is due again. */
  private leaseMs = new Map<string, number>()
  /** The polling loop and every schedule run through it: a failing tick is logged, never fatal. */
  private guard: LoopGuard
  /** Claims due jobs; from the poll, a delayed claim and the refill after a job ends alike. */
  private claimTurn: () => void
  /** Runs a claimed job; recording its outcome can fail too (the database is gone), and that is logged. */
  private run: (job: Job) => Promise<void>

  constructor(private opts: RunnerOptions) {
    for (const h of opts.handlers) {
      this.handlers.set(h.kind, h)
      this.leaseMs.set(h.kind, (h.timeoutMs ?? DEFAULT_TIMEOUT) + LEASE_GRACE)
    }
    this.repo = createJobsRepository({ db: opts.db })
    this.guard = loopGuard(opts)
    this.claimTurn = this.guard('jobs.claim', () => this.pump())
    this.run = this.guard('jobs.run', (job: Job) => this.execute(job))
  }

  /** Claims what is due now (up to the free slots) and waits for those jobs; returns how many ran. */
  async tick(): Promise<number> {
    const free = (this.opts.concurrency ?? 8) - this.running.size
    if (free <= 0 || this.stopped) return 0
    const claimed = await this.claim(free)
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
   * At start-up, makes due again at once the jobs whose runner is gone: leases that expired, and those
   * of a process of this host that died (the previous server), rather than after their lease runs out.
   * A lease that another live server holds (several nodes share the database) stays its own.
   */
  async reclaimOrphans(): Promise<number> {
    const now = this.opts.clock.now()
    const gone = (await this.repo.liveLeaseOwners(now)).filter((owner) => leaseOwnerGone(owner, this.owner))
    return this.repo.release(now, gone)
  }

  /** Starts the polling loop and the domain schedules. */
  start(): void {
    const poll = new Cron('* * * * * *', { protect: true }, this.claimTurn)
    this.crons.push(poll)
    for (const s of this.opts.schedules ?? []) {
      this.crons.push(
        new Cron(s.pattern, { protect: true, name: s.name }, async (cron: Cron) => {
          // The tick's scheduled time (croner fires at or after it), the same on every node.
          const tick = this.runSchedule(s, cron.previousRuns(1, new Date())[0] ?? new Date())
          this.ticking.add(tick)
          await tick.finally(() => this.ticking.delete(tick))
        }),
      )
    }
  }

  /**
   * One tick of a schedule; false when it was skipped to leave the CPU to requests, or because
   * another node sharing the database took tick `tick` first (the timer of every node fires: the
   * database lease makes it run once). Without `tick` (tests) or for a `perNode` schedule it runs here.
   */
  async runSchedule(s: Schedule, tick?: Date): Promise<boolean> {
    if (s.yieldsToRequests && this.opts.busy?.()) return false
    let ran = false
    // The lease is part of the guarded turn: a database that cannot be reached is logged, never fatal.
    await this.guard(`schedule ${s.name}`, async () => {
      if (tick && !s.perNode && !(await this.repo.leaseTick(s.name, tick, this.owner))) return
      ran = true
      await s.run()
    })()
    return ran
  }

  /** Stops claiming and waits for running jobs to finish. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const c of this.crons) c.stop()
    if (this.delayedPump) clearTimeout(this.delayedPump)
    // A claim in flight still starts its jobs (they are leased): wait for it (its failure is the loop's to log), then for them.
    await Promise.allSettled([this.pumping])
    await Promise.allSettled([...this.running, ...this.ticking])
  }

  /** Claims for the free slots, one claim at a time; a call during a claim makes it claim once more after. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.pumpAgain = true
      return this.pumping
    }
    this.pumping = (async () => {
      try {
        do {
          this.pumpAgain = false
          await this.fillSlots()
        } while (this.pumpAgain && !this.stopped)
      } finally {
        this.pumping = null
      }
    })()
    return this.pumping
  }

  /** Starts jobs in the free slots without waiting for them, so a hung job never blocks the loop. */
  private async fillSlots(): Promise<void> {
    if (this.stopped) return
    let free = (this.opts.concurrency ?? 8) - this.running.size
    if (free > 0 && this.opts.busy?.()) {
      const wait = this.lastClaimAt + BUSY_CLAIM_INTERVAL_MS - performance.now()
      if (wait > 0) return this.pumpLater(wait)
      free = 1
      this.pumpLater(BUSY_CLAIM_INTERVAL_MS)
    }
    this.lastClaimAt = performance.now()
    if (free > 0) for (const job of await this.claim(free)) void this.track(this.run(job))
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

  private async claim(limit: number): Promise<Job[]> {
    if (this.handlers.size === 0) return []
    return this.repo.claim({
      kinds: [...this.handlers.keys()],
      owner: this.owner,
      now: this.opts.clock.now(),
      limit,
      leaseMs: this.leaseMs,
      defaultLeaseMs: DEFAULT_TIMEOUT + LEASE_GRACE,
    })
  }

  private async execute(job: Job): Promise<void> {
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
      await this.finish(job.id, { status: 'done', attempts: attempt, lastError: null })
    } catch (err) {
      const now = this.opts.clock.now().getTime()
      if (err instanceof DeferJob) {
        await this.finish(job.id, { status: 'pending', runAt: new Date(now + err.delayMs) })
        return
      }
      const message = err instanceof Error ? err.message : String(err)
      if (attempt >= job.maxAttempts) {
        log.warn('job failed for good', { error: message })
        await this.finish(job.id, { status: 'failed', attempts: attempt, lastError: message })
      } else {
        const delay = (handler.backoffMs ?? defaultBackoff)(attempt)
        log.info('job will retry', { error: message, in_ms: delay })
        await this.finish(job.id, { status: 'pending', attempts: attempt, lastError: message, runAt: new Date(now + delay) })
      }
    } finally {
      clearTimeout(timer)
    }
  }

  /** Records a job's outcome; only while this runner still holds its lease. */
  private finish(id: number, outcome: JobOutcome): Promise<void> {
    return this.repo.finish(id, this.owner, outcome, this.opts.clock.now())
  }
}
