import type { Seam } from '../db/client'
import type { Clock } from '../lib/clock'
import { DAY } from '../lib/clock'
import { createJobsRepository } from './jobs.repository'

export interface EnqueueInput {
  kind: string
  payload: unknown
  /** Default now. */
  runAt?: Date
  maxAttempts?: number
  /** A second enqueue with the same key is ignored. */
  idempotencyKey?: string
}

/** A job of the kind `prepare` fixed. */
export type PreparedInput = Omit<EnqueueInput, 'kind' | 'maxAttempts'>

/**
 * Writes jobs; pass the handle of the write that causes them (a write inside a write joins it), so
 * the change and its jobs commit or roll back together.
 */
export class JobQueue {
  constructor(
    private clock: Clock,
    private defaultMaxAttempts = 5,
  ) {}

  /** Enqueues one job, or several in one insert. */
  async enqueue(tx: Seam, input: EnqueueInput | EnqueueInput[]): Promise<void> {
    const inputs = Array.isArray(input) ? input : [input]
    if (inputs.length === 0) return
    const now = this.clock.now()
    await createJobsRepository({ db: tx }).insert(
      inputs.map((i) => ({
        kind: i.kind,
        payload: i.payload,
        runAt: i.runAt ?? now,
        maxAttempts: i.maxAttempts ?? this.defaultMaxAttempts,
        idempotencyKey: i.idempotencyKey ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    )
  }

  /**
   * `enqueue` bound to one kind, for an event handler run per report write. It writes through `db`'s
   * seam, so called inside a write it joins it; an array is one insert.
   */
  prepare(db: Seam, kind: string, opts: { maxAttempts?: number } = {}): (input: PreparedInput | PreparedInput[]) => Promise<void> {
    const maxAttempts = opts.maxAttempts ?? this.defaultMaxAttempts
    return (input) => this.enqueue(db, (Array.isArray(input) ? input : [input]).map((i) => ({ ...i, kind, maxAttempts })))
  }

  /** Lets the pending jobs with these idempotency keys run now (e.g. deliveries held while their target was paused). */
  async runNow(tx: Seam, idempotencyKeys: string[]): Promise<void> {
    if (idempotencyKeys.length) await createJobsRepository({ db: tx }).runNow(idempotencyKeys, this.clock.now())
  }

  /** Deletes finished jobs older than `retainMs` (failed ones are kept for inspection). */
  async prune(db: Seam, retainMs = 7 * DAY): Promise<void> {
    await createJobsRepository({ db }).prune(new Date(this.clock.now().getTime() - retainMs))
  }

  /** Counts by status, for health and tests. */
  counts(db: Seam): Promise<Record<string, number>> {
    return createJobsRepository({ db }).counts()
  }
}
