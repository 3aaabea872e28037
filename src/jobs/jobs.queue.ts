import type { DbOrTx, Seam } from '../db/client'
import type { Clock } from '../lib/clock'
import { DAY } from '../lib/clock'
import { createJobsRepository, insertJob, prepareInsertJob, runJobsNow } from './jobs.repository'

export interface EnqueueInput {
  kind: string
  payload: unknown
  /** Default now. */
  runAt?: Date
  maxAttempts?: number
  /** A second enqueue with the same key is ignored. */
  idempotencyKey?: string
}

/** Writes jobs; pass the transaction of the change that causes them so both commit or neither. */
export class JobQueue {
  constructor(
    private clock: Clock,
    private defaultMaxAttempts = 5,
  ) {}

  enqueue(tx: DbOrTx, input: EnqueueInput): void {
    const now = this.clock.now()
    insertJob(tx, {
      kind: input.kind,
      payload: input.payload,
      runAt: input.runAt ?? now,
      maxAttempts: input.maxAttempts ?? this.defaultMaxAttempts,
      idempotencyKey: input.idempotencyKey ?? null,
      createdAt: now,
      updatedAt: now,
    })
  }

  /**
   * `enqueue` for one kind on a hot path (an event handler run per report write): the insert is
   * prepared once. It runs on `db`'s connection, so called inside a transaction it joins it.
   */
  prepare(db: DbOrTx, kind: string, opts: { maxAttempts?: number } = {}): (input: { payload: unknown; idempotencyKey?: string; runAt?: Date }) => void {
    const insert = prepareInsertJob(db, kind, opts.maxAttempts ?? this.defaultMaxAttempts)
    return (input) => {
      const now = this.clock.now()
      insert({ payload: input.payload, idempotencyKey: input.idempotencyKey ?? null, now, runAt: input.runAt ?? now })
    }
  }

  /** Lets the pending jobs with these idempotency keys run now (e.g. deliveries held while their target was paused). */
  runNow(tx: DbOrTx, idempotencyKeys: string[]): void {
    if (idempotencyKeys.length) runJobsNow(tx, idempotencyKeys, this.clock.now())
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
