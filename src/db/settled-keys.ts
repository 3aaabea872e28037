import { type SQLWrapper, sql } from 'drizzle-orm'
import { onPostgres, type Query, rowsOf } from './client'

/**
 * Cursor readers (the analytics rollups) walk a table by its ascending key and remember the last key
 * they counted. On SQLite rows commit in key order (one writer). On PostgreSQL they do not: a filing
 * that took key 100 can commit after another that took 101, and a cursor already moved past 101 never
 * sees 100 (a launch day of 5,000 submissions once counted 4,998 there). `settledUpTo` answers the
 * highest key at or below which every row that will ever exist is already visible.
 *
 * How: in one statement (one snapshot), the table's highest visible key and the transactions in
 * progress. A key below that one was taken before it, by a transaction that had then finished (its
 * row visible, or gone for good) or was in progress; once those have all finished, nothing at or
 * below the highest key can still appear. Waiting costs the length of a filing (milliseconds); a
 * writer that stays open longer than `waitMs` (a long bulk change) holds the cursor back: 0, nothing
 * settled this time, and the next run tries again. A transaction in progress that waits for the
 * caller's own locks would wait out `waitMs` too, never forever.
 *
 * Returns undefined on SQLite: every visible row is settled.
 */
export async function settledUpTo(q: Query, table: SQLWrapper, key: SQLWrapper, waitMs = 5_000): Promise<number | undefined> {
  if (!onPostgres(q)) return undefined
  const [seen] = await rowsOf<{ top: string | number | null; snapshot: string }>(q, sql`SELECT (SELECT max(${key}) FROM ${table}) AS top, CAST(pg_current_snapshot() AS text) AS snapshot`)
  const top = Number(seen?.top ?? 0)
  const deadline = Date.now() + waitMs
  for (;;) {
    // Those of the snapshot's transactions still running, this one left out (it may hold an id already).
    const [open] = await rowsOf<{ n: string | number }>(
      q,
      sql`SELECT count(*) AS n FROM pg_snapshot_xip(CAST(${seen!.snapshot} AS pg_snapshot)) AS x
        WHERE x IS DISTINCT FROM pg_current_xact_id_if_assigned() AND pg_xact_status(x) = 'in progress'`,
    )
    if (Number(open?.n ?? 0) === 0) return top
    if (Date.now() > deadline) return 0
    await Bun.sleep(2)
  }
}
