import { and, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../db/client'
import type { Clock } from '../lib/clock'
import { DAY } from '../lib/clock'
import { jobs } from './jobs.table'

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
    tx.insert(jobs)
      .values({
        kind: input.kind,
        payload: input.payload,
        runAt: input.runAt ?? now,
        maxAttempts: input.maxAttempts ?? this.defaultMaxAttempts,
        idempotencyKey: input.idempotencyKey ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .run()
  }

  /**
   * `enqueue` for one kind on a hot path (an event handler run per report write): the insert is
   * prepared once. It runs on `db`'s connection, so called inside a transaction it joins it.
   */
  prepare(db: Db, kind: string, opts: { maxAttempts?: number } = {}): (input: { payload: unknown; idempotencyKey?: string; runAt?: Date }) => void {
    const stmt = db
      .insert(jobs)
      .values({
        kind,
        payload: sql.placeholder('payload'),
        runAt: sql.placeholder('runAt'),
        maxAttempts: opts.maxAttempts ?? this.defaultMaxAttempts,
        idempotencyKey: sql.placeholder('key'),
        createdAt: sql.placeholder('now'),
        updatedAt: sql.placeholder('now'),
      })
      .onConflictDoNothing()
      .prepare()
    return (input) => {
      const now = this.clock.now()
      stmt.run({ payload: input.payload, key: input.idempotencyKey ?? null, now, runAt: input.runAt ?? now })
    }
  }

  /** Lets the pending jobs with these idempotency keys run now (e.g. deliveries held while their target was paused). */
  runNow(tx: DbOrTx, idempotencyKeys: string[]): void {
    if (!idempotencyKeys.length) return
    const now = this.clock.now()
    tx.update(jobs)
      .set({ runAt: now, updatedAt: now })
      .where(and(eq(jobs.status, 'pending'), inArray(jobs.idempotencyKey, idempotencyKeys)))
      .run()
  }

  /** Deletes finished jobs older than `retainMs` (failed ones are kept for inspection). */
  prune(db: DbOrTx, retainMs = 7 * DAY): void {
    const cutoff = new Date(this.clock.now().getTime() - retainMs)
    db.delete(jobs).where(and(eq(jobs.status, 'done'), lt(jobs.updatedAt, cutoff))).run()
  }

  /** Counts by status, for health and tests. */
  counts(db: DbOrTx): Record<string, number> {
    const rows = db.select({ status: jobs.status, n: sql<number>`count(*)` }).from(jobs).groupBy(jobs.status).all()
    return Object.fromEntries(rows.map((r) => [r.status, r.n]))
  }
}
