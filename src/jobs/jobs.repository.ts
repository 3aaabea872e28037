import { and, asc, count, eq, gt, inArray, isNotNull, like, lt, lte, or, sql, type SQL } from 'drizzle-orm'
import { type DbOrTx, preparedPerConnection, type Query, type Seam, skippingLocked } from '../db/client'
import { jobs, type JobStatus } from './jobs.table'
import { inPicked } from '../db/portable-sql'
import { scheduleTicks } from './schedule-ticks.table'

export type Job = typeof jobs.$inferSelect
type NewJob = typeof jobs.$inferInsert

/** A job's outcome as the runner records it; an absent field keeps the stored value. */
export interface JobOutcome {
  status: Exclude<JobStatus, 'running'>
  attempts?: number
  lastError?: string | null
  runAt?: Date
}

/** Due now: a pending job whose time came, or a running one whose runner let its lease expire. */
const dueAt = (now: Date) =>
  or(and(eq(jobs.status, 'pending'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lte(jobs.leaseExpiresAt, now)))

const p = sql.placeholder
// One job at a time is the common enqueue (an event handler, per filed report): prepared once per connection.
const prepareInsertOne = (q: Query) =>
  q
    .insert(jobs)
    .values({ kind: p('kind'), payload: p('payload'), runAt: p('runAt'), maxAttempts: p('maxAttempts'), idempotencyKey: p('idempotencyKey'), createdAt: p('createdAt'), updatedAt: p('updatedAt') })
    .onConflictDoNothing()
    .prepare()
const insertOneOf = preparedPerConnection(prepareInsertOne)

/** Every read and write of the job table the runner and housekeeping make, as async functions over the seam. */
export function createJobsRepository({ db }: { db: Seam }) {
  return {
    /**
     * Leases up to `limit` due jobs of these kinds to `owner` in one statement, expired leases first,
     * and returns them. The UPDATE re-checks that each row is still due, so two runners sharing a
     * database never lease the same job: on SQLite writes are serialised, and on an engine with row
     * locks the loser re-reads the row after the winner commits and finds it running.
     * `leaseMs(kind)`: how long the lease of a job of that kind lasts.
     */
    claim: async (o: { kinds: string[]; owner: string; now: Date; limit: number; leaseMs: Map<string, number>; defaultLeaseMs: number }): Promise<Job[]> => {
      // Two index range scans that stop at the limit (expired leases by expiry, pending jobs by
      // run_at): one OR-ed query sorted the whole due backlog on every claim. On PostgreSQL the rows
      // picked are locked and rows another node is claiming skipped (skippingLocked). Jobs due at the
      // same moment go in the order they were queued (id): PostgreSQL keeps no order among equal run_at
      // (a comment's mail overtook the status change's queued before it).
      const ofKinds = inArray(jobs.kind, o.kinds)
      const expired = (q: DbOrTx, limit: number) => q.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.status, 'running'), lte(jobs.leaseExpiresAt, o.now), ofKinds)).orderBy(asc(jobs.leaseExpiresAt)).limit(limit)
      const pending = (q: DbOrTx, limit: number) => q.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.status, 'pending'), lte(jobs.runAt, o.now), ofKinds)).orderBy(asc(jobs.runAt), asc(jobs.id)).limit(limit)
      const expiredIds = (q: DbOrTx) => skippingLocked(expired(q, o.limit)).as('expired')
      const pendingIds = (q: DbOrTx) => skippingLocked(pending(q, o.limit)).as('pending')
      // A read first: a runner polls every second, and every 20 ms while requests queue
      // (jobs.runner.ts), mostly finding nothing due. A write for each poll took the write lock that
      // filings wait for, and on SQLite each attempt for it cost the job thread a retry every
      // millisecond while the request thread held it (~300 µs of its CPU per report filed under load).
      const due = await db.read(async (q) => (await expired(q, 1)).length > 0 || (await pending(q, 1)).length > 0)
      if (!due) return []
      const now = o.now.getTime()
      const expires = leaseExpiry(o.leaseMs, o.defaultLeaseMs, now)
      const claimed = await db.write((q) =>
        q
          .update(jobs)
          .set({ status: 'running', leaseOwner: o.owner, leaseExpiresAt: sql`${expires}`, updatedAt: o.now })
          .where(
            and(
              inPicked(q, jobs.id, sql`(SELECT id FROM ${expiredIds(q)} UNION ALL SELECT id FROM ${pendingIds(q)} LIMIT ${o.limit})`),
              dueAt(o.now),
            ),
          )
          .returning(),
      )
      // RETURNING gives rows in table order: the jobs run in the order they fell due, as they were picked.
      return claimed.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id - b.id)
    },

    /** Records a job's outcome, only while `owner` still holds its lease (a reclaimed job is someone else's now). */
    finish: async (id: number, owner: string, o: JobOutcome, now: Date): Promise<void> => {
      await db.write((q) =>
        q
          .update(jobs)
          .set({
            status: o.status,
            ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
            ...(o.lastError === undefined ? {} : { lastError: o.lastError }),
            ...(o.runAt === undefined ? {} : { runAt: o.runAt }),
            leaseOwner: null,
            leaseExpiresAt: null,
            updatedAt: now,
          })
          .where(and(eq(jobs.id, id), eq(jobs.leaseOwner, owner))),
      )
    },

    /** The owners of running leases that have not expired yet. */
    liveLeaseOwners: async (now: Date): Promise<string[]> => {
      const rows = await db.read((q) =>
        q
          .selectDistinct({ owner: jobs.leaseOwner })
          .from(jobs)
          .where(and(eq(jobs.status, 'running'), isNotNull(jobs.leaseOwner), gt(jobs.leaseExpiresAt, now))),
      )
      return rows.map((r) => r.owner!)
    },

    /** Makes running jobs due again at `now`: those whose lease expired, and those held by `owners`. Returns how many. */
    release: async (now: Date, owners: string[]): Promise<number> => {
      const freed = await db.write((q) =>
        q
          .update(jobs)
          .set({ status: 'pending', leaseOwner: null, leaseExpiresAt: null, runAt: now, updatedAt: now })
          .where(and(eq(jobs.status, 'running'), or(lte(jobs.leaseExpiresAt, now), owners.length ? inArray(jobs.leaseOwner, owners) : undefined)))
          .returning({ id: jobs.id }),
      )
      return freed.length
    },

    /** Deletes finished jobs last touched before `cutoff` (failed ones are kept for inspection). */
    prune: async (cutoff: Date): Promise<void> => {
      await db.write((q) => q.delete(jobs).where(and(eq(jobs.status, 'done'), lt(jobs.updatedAt, cutoff))))
    },

    /** Inserts jobs in one statement; a duplicate idempotency key is ignored. Inside a write it joins it, so the jobs commit with their cause. */
    insert: async (rows: NewJob[]): Promise<void> => {
      const [one] = rows
      if (rows.length === 1 && one) await db.write((q) => insertOneOf(q).execute({ ...one, idempotencyKey: one.idempotencyKey ?? null }))
      else await db.write((q) => q.insert(jobs).values(rows).onConflictDoNothing())
    },

    /** Makes the pending jobs with these idempotency keys due at `now`. */
    runNow: async (idempotencyKeys: string[], now: Date): Promise<void> => {
      await db.write((q) => q.update(jobs).set({ runAt: now, updatedAt: now }).where(and(eq(jobs.status, 'pending'), inArray(jobs.idempotencyKey, idempotencyKeys))))
    },

    /** Counts by status. */
    counts: async (): Promise<Record<string, number>> => {
      const rows = await db.read((q) => q.select({ status: jobs.status, n: count() }).from(jobs).groupBy(jobs.status))
      return Object.fromEntries(rows.map((r) => [r.status, r.n]))
    },

    /** Lets the pending jobs of `kind` whose idempotency keys start with `keyPrefix` run now (a held job released). */
    runPendingNow: (kind: string, keyPrefix: string, now: Date) =>
      db.write(async (q) => void (await q.update(jobs).set({ runAt: now, updatedAt: now }).where(and(eq(jobs.kind, kind), eq(jobs.status, 'pending'), like(jobs.idempotencyKey, `${keyPrefix}%`))))),

    /**
     * Takes tick `tick` of schedule `name` for `owner`: true for the one caller whose insert or
     * compare-and-set moves the schedule's last tick forward to it, false for every other node (and
     * for a tick older than one already taken). One statement, so it holds on both engines.
     */
    leaseTick: async (name: string, tick: Date, owner: string): Promise<boolean> => {
      const taken = await db.write((q) =>
        q
          .insert(scheduleTicks)
          .values({ name, tick, owner })
          .onConflictDoUpdate({ target: scheduleTicks.name, set: { tick, owner }, setWhere: lt(scheduleTicks.tick, tick) })
          .returning({ name: scheduleTicks.name }),
      )
      return taken.length > 0
    },
  }
}

export type JobsRepository = ReturnType<typeof createJobsRepository>

/** The lease expiry of a row, in epoch ms: `now` plus its kind's lease (a CASE over the kinds whose lease differs from the default). */
function leaseExpiry(leaseMs: Map<string, number>, defaultLeaseMs: number, now: number): SQL {
  const special = [...leaseMs].filter(([, ms]) => ms !== defaultLeaseMs)
  if (!special.length) return sql`${now + defaultLeaseMs}`
  const whens = sql.join(special.map(([kind, ms]) => sql`WHEN ${kind} THEN ${now + ms}`), sql` `)
  return sql`CASE ${jobs.kind} ${whens} ELSE ${now + defaultLeaseMs} END`
}
