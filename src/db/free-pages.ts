import { statSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { rawSqlite, rowsOf, type Db } from './client'
import { isPostgres } from './pg/client'

const MAX_VACUUM_PAGES = 1_000
/** Pages given back to the file system per incremental-vacuum step, at first (then sized by time). */
const FIRST_VACUUM_PAGES = 256

/**
 * Runs `fn` with SQLite's automatic checkpoints off on this connection, so a long housekeeping run
 * (retention) never pays for one inside its short write batches: checkpoints are the job thread's
 * schedule's work (db/checkpoint.ts). The setting comes back after, whatever `fn` does.
 */
export async function withoutAutocheckpoint<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  // PostgreSQL checkpoints in its own processes, never inside a commit of ours.
  if (isPostgres(db)) return fn()
  const sqlite = rawSqlite(db)
  const autocheckpoint = sqlite.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint
  sqlite.run('PRAGMA wal_autocheckpoint = 0')
  try {
    return await fn()
  } finally {
    sqlite.run(`PRAGMA wal_autocheckpoint = ${autocheckpoint}`)
  }
}

/**
 * Gives free pages back to the file system in `PRAGMA incremental_vacuum(N)` steps sized by time
 * (each about `targetMs` under the write lock; `onStep(heldMs)` after each, `pause(heldMs)` between them), when the database has
 * incremental auto-vacuum (new data directories do; see client.ts). Without it the freed pages stay in
 * the file and new rows reuse them first, so the file stops growing. Returns the pages given back.
 */
export async function giveBackFreePages(db: Db, o: { targetMs: number; onStep: (heldMs: number) => void; pause: (heldMs: number) => Promise<void> }): Promise<number> {
  // PostgreSQL's autovacuum makes dead rows' space reusable by itself.
  if (isPostgres(db)) return 0
  const sqlite = rawSqlite(db)
  if (sqlite.query<{ auto_vacuum: number }, []>('PRAGMA auto_vacuum').get()?.auto_vacuum !== 2) return 0
  const freePages = () => sqlite.query<{ freelist_count: number }, []>('PRAGMA freelist_count').get()!.freelist_count
  let pages = FIRST_VACUUM_PAGES
  let total = 0
  for (let free = freePages(); free > 0; ) {
    const started = performance.now()
    await db.write(() => void sqlite.run(`PRAGMA incremental_vacuum(${Math.min(pages, free)})`))
    const held = performance.now() - started
    o.onStep(held)
    const left = freePages()
    total += free - left
    if (left >= free) break
    free = left
    pages = Math.max(16, Math.min(MAX_VACUUM_PAGES, Math.ceil(pages * 1.5), Math.floor((pages * o.targetMs) / Math.max(held, 0.1))))
    await o.pause(held)
  }
  return total
}

const fileSize = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0

/**
 * The database's own figures for `glitchbox admin stats`: its size (SQLite: the file, with WAL and
 * free pages; PostgreSQL: `pg_database_size`, no WAL or free pages of ours) and the rows of every table.
 */
export async function databaseStats(db: Db) {
  if (isPostgres(db)) return postgresStats(db)
  const sqlite = rawSqlite(db)
  const pragma = <T>(name: string) => Object.values(sqlite.query(`PRAGMA ${name}`).get() as Record<string, T>)[0]!
  const pageSize = pragma<number>('page_size')
  const tables = sqlite
    .query<{ name: string; type: string }, []>("SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
  const rows: Record<string, number> = {}
  for (const t of tables) rows[t.name] = sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${t.name.replaceAll('"', '""')}"`).get()!.n
  return {
    database: {
      engine: 'sqlite' as 'sqlite' | 'postgresql',
      bytes: fileSize(sqlite.filename),
      wal_bytes: fileSize(`${sqlite.filename}-wal`),
      /** Pages freed by deletions, reused by new rows before the file grows. */
      free_bytes: pragma<number>('freelist_count') * pageSize,
      auto_vacuum: (['none', 'full', 'incremental'] as const)[pragma<number>('auto_vacuum')] ?? 'none',
    },
    rows,
  }
}

/** `databaseStats` on PostgreSQL: the database's size and an exact count of every table of the public schema. */
async function postgresStats(db: Db) {
  return db.read(async (q) => {
    const [size] = await rowsOf<{ bytes: string | number }>(q, sql`SELECT pg_database_size(current_database()) AS bytes`)
    const tables = await rowsOf<{ name: string }>(q, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)
    const rows: Record<string, number> = {}
    for (const t of tables) rows[t.name] = Number((await rowsOf<{ n: string | number }>(q, sql`SELECT count(*) AS n FROM ${sql.identifier(t.name)}`))[0]!.n)
    return {
      database: { engine: 'postgresql' as 'sqlite' | 'postgresql', bytes: Number(size?.bytes ?? 0), wal_bytes: 0, free_bytes: 0, auto_vacuum: 'autovacuum' as const },
      rows,
    }
  })
}
