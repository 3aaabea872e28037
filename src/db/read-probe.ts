import { Database } from 'bun:sqlite'
import { rawSqlite, type Db } from './client'

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

/** Whether the server's own (write) connection still answers (it fails once closed): null, or why not. */
export function connectionFails(db: Db): string | null {
  try {
    rawSqlite(db).query('SELECT 1').get()
    return null
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}
