import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { jobs } from './jobs.table'

const ph = sql.placeholder
/** A placeholder bound as is (epoch ms for timestamps): `set` does not map bare placeholders. */
const bound = (name: string) => sql`${ph(name)}`

/**
 * The runner's statements, prepared once: every job is claimed and finished through them, so a
 * backlog of thousands of deliveries does not rebuild the same SQL thousands of times.
 * Timestamps are bound as epoch milliseconds.
 */
export function runnerStatements(db: Db, kinds: string[]) {
  // Two index range scans that stop at the limit (expired leases first, then pending jobs by
  // run_at): one OR-ed query sorted the whole due backlog on every claim.
  const due = (status: 'running' | 'pending', at: typeof jobs.runAt | typeof jobs.leaseExpiresAt) =>
    db
      .select({ id: jobs.id, kind: jobs.kind })
      .from(jobs)
      .where(and(eq(jobs.status, status), lte(at, ph('now')), inArray(jobs.kind, kinds)))
      .orderBy(asc(at))
      .limit(ph('n'))
      .prepare()

  const lease = db
    .update(jobs)
    .set({ status: 'running', leaseOwner: bound('owner'), leaseExpiresAt: bound('expires'), updatedAt: bound('now') })
    .where(eq(jobs.id, ph('id')))
    .returning()
    .prepare()

  // One statement for every outcome: null attempts / runAt keep the stored value, keepError keeps last_error.
  const finish = db
    .update(jobs)
    .set({
      status: bound('status'),
      attempts: sql`coalesce(${ph('attempts')}, ${jobs.attempts})`,
      lastError: sql`CASE WHEN ${ph('keepError')} THEN ${jobs.lastError} ELSE ${ph('error')} END`,
      runAt: sql`coalesce(${ph('runAt')}, ${jobs.runAt})`,
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: bound('now'),
    })
    .where(and(eq(jobs.id, ph('id')), eq(jobs.leaseOwner, ph('owner'))))
    .prepare()

  return { expired: due('running', jobs.leaseExpiresAt), pending: due('pending', jobs.runAt), lease, finish }
}

export type RunnerStatements = ReturnType<typeof runnerStatements>
