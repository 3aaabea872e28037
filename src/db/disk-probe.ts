import { rawSqlite, type Db } from './client'
import { isPostgres } from './pg/client'

const ROLLBACK = Symbol('rollback')

/**
 * A probe for a full disk: a write that needs new pages (64 KB), rolled back (SQLite). It fails (true) with
 * SQLITE_FULL while the database cannot grow, or when busy (which says nothing about space: the
 * caller keeps its mark until a probe gets through).
 */
export function diskFullProbe(db: Db): () => boolean {
  // PostgreSQL's disk is its server's, not this machine's: only the data directory's free space (DiskWatch) counts here.
  if (isPostgres(db)) return () => false
  const sqlite = rawSqlite(db)
  return () => {
    try {
      sqlite.transaction(() => {
        sqlite.run('CREATE TABLE _glitchbox_disk_probe (x BLOB)')
        sqlite.run('INSERT INTO _glitchbox_disk_probe VALUES (zeroblob(65536))')
        throw ROLLBACK
      })()
    } catch (err) {
      return err !== ROLLBACK
    }
    return false
  }
}
