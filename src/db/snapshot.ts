import type { Database } from 'bun:sqlite'
import { openSqlite } from './client'

/**
 * Writes a transactionally consistent copy of the database file at `path` to `target` (`VACUUM
 * INTO`: WAL readers take it without blocking writers, so a running server goes on).
 */
export function snapshotDatabase(path: string, target: string): void {
  const sqlite = openSqlite(path)
  try {
    sqlite.query('VACUUM INTO ?').run(target)
  } finally {
    sqlite.close()
  }
}

/** What SQLite's integrity check finds wrong with an open database, or null when it is sound. */
export function integrityProblem(sqlite: Database): string | null {
  const check = sqlite.query<{ integrity_check: string }, []>('PRAGMA integrity_check').get()
  return check?.integrity_check === 'ok' ? null : String(check?.integrity_check)
}
