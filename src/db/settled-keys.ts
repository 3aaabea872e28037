import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { execute, onPostgres, type Query, rowsOf } from './client'

/**
 * Cursor readers (the analytics rollups, the alerts' hourly counts) walk a table by its ascending key
 * and remember the last key they counted. On SQLite rows commit in key order (one writer). On
 * PostgreSQL they do not: a filing that took key 100 can commit after another that took 101, and a
 * cursor already moved past 101 never sees 100 (a launch day of 5,000 submissions once counted 4,998
 * there). `settledKeys` answers the condition that keeps a cursor read to the keys at or below which
 * every row that will ever exist is already visible.
 *
 * How: in one statement, the table's highest visible key and the transactions holding a write lock
 * (RowExclusiveLock) on that table. A key below the highest one was taken before it, by an insert that
 * had locked the table before taking its key (an identity default is evaluated after the lock) and
 * holds that lock until its transaction ends; so once those transactions have finished, nothing at or
 * below the highest key can still appear. A transaction that commits between the snapshot and the
 * lock read is visible to the caller's next statement (READ COMMITTED). Only writers of this table
 * are waited on: never a migration's DDL, a bulk change of other tables, or another rollup, which once
 * starved a rollup and deadlocked with the CLI's start-up when every transaction was waited on.
 *
 * Waiting costs the length of a filing (milliseconds); a writer of the table that stays open longer
 * than `waitMs` holds the cursor back: nothing is settled this time (`false`), and the next run tries
 * again. On SQLite: undefined, no bound (every visible row is settled).
 */
export async function settledKeys(
  q: Query,
  { table, column, as = sql.identifier(column), waitMs = 5_000 }: { table: string; column: string; as?: SQLWrapper; waitMs?: number },
): Promise<SQL | undefined> {
  if (!onPostgres(q)) return undefined
  // Each writer is named by its backend and the start of its transaction (a backend's next transaction
  // starts later). pg_locks spans every database of the server, and databases cloned from one template
  // share their tables' oids: only this database's locks count. pg_locks is read once (each read takes
  // every lock partition the filings lock in); the wait polls the backends' activity, which takes none.
  // Backend activity is kept for the rest of a transaction once read (the caller may be inside one): each
  // read here is of a fresh copy.
  const fresh = () => execute(q, sql`SELECT pg_stat_clear_snapshot()`)
  await fresh()
  const [seen] = await rowsOf<{ top: string | number | null; writers: string | null }>(
    q,
    sql`SELECT (SELECT max(${sql.identifier(column)}) FROM ${sql.identifier(table)}) AS top,
      (SELECT string_agg(a.pid || '@' || CAST(a.xact_start AS text), ',') FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'relation' AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.relation = to_regclass(CAST(${table} AS text)) AND l.mode = 'RowExclusiveLock' AND l.granted
          AND l.pid <> pg_backend_pid()) AS writers`,
  )
  const top = Number(seen?.top ?? 0)
  const writers = seen?.writers
  const deadline = Date.now() + waitMs
  while (writers) {
    await fresh()
    const [open] = await rowsOf<{ n: string | number }>(
      q,
      sql`SELECT count(*) AS n FROM pg_stat_activity WHERE (pid || '@' || CAST(xact_start AS text)) = ANY(string_to_array(CAST(${writers} AS text), ','))`,
    )
    if (Number(open?.n ?? 0) === 0) break
    if (Date.now() > deadline) return sql`false`
    await Bun.sleep(2)
  }
  return sql`${as} <= ${top}`
}
