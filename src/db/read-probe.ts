import { Database } from 'bun:sqlite'
import { sql } from 'drizzle-orm'
import { rawSqlite, rowsOf, type Db } from './client'
import { isPostgres } from './pg/client'

/**
 * Whether the database file can still be read, for /health: returns null, or the reason it cannot.
 * The server's own connections answer from their page caches, so `SELECT 1` and even real queries
 * kept succeeding for a while after the file under them was overwritten with garbage (issue 21:
 * /health said healthy while /api answered 500). This probe has a read-only connection of its own,
 * drops that connection's cache (`PRAGMA shrink_memory`) and reads the schema table's first row, so
 * every call reads the file's header page and descends the schema's b-tree again (from the OS
 * cache: 10-40 µs, where walking the whole schema took 70-90 µs). A database without a schema
 * (the file emptied) fails too.
 */
export function databaseReadProbe(path: string): () => string | null {
  let db: Database | null = null
  let schema: ReturnType<Database['prepare']> | null = null
  return () => {
    try {
      if (!db) {
        db = new Database(path, { readonly: true })
        // A /health answer must not wait 5 s behind a checkpoint, as a request's write may.
        db.exec('PRAGMA busy_timeout = 1000')
      }
      db.exec('PRAGMA shrink_memory')
      schema ??= db.prepare('SELECT type FROM sqlite_schema LIMIT 1')
      return schema.get() ? null : 'the database has no tables'
    } catch (err) {
      return err instanceof Error ? err.message : String(err)
    }
  }
}

/** How long /health waits for PostgreSQL to answer before it calls the database unreachable. */
const PING_TIMEOUT_MS = 2_000

/**
 * Whether the server's own connection answers: null, or why not. SQLite: the write connection (it
 * fails once closed). PostgreSQL: a `SELECT 1` through the pool within 2 s; the pool opens new
 * connections for later queries, so the answer turns back to null by itself once the server is back.
 */
export async function connectionFails(db: Db): Promise<string | null> {
  try {
    if (!isPostgres(db)) {
      rawSqlite(db).query('SELECT 1').get()
      return null
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${PING_TIMEOUT_MS / 1000} s`)), PING_TIMEOUT_MS)
    })
    try {
      await Promise.race([db.read((q) => rowsOf(q, sql`SELECT 1`)), timeout])
    } finally {
      clearTimeout(timer)
    }
    return null
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}

/** The engine behind the seam, as /health names it. */
export const engineOf = (db: Db): 'sqlite' | 'postgresql' => (isPostgres(db) ? 'postgresql' : 'sqlite')
