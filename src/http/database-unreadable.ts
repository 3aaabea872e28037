import { join } from 'node:path'
import type { AppDeps } from '../app-deps'
import { isPostgres } from '../db/pg/client'
import { databaseReadProbe } from '../db/read-probe'
import { DB_FILE } from '../deps'

/** The answer (503) to a write while the database file cannot be read. */
export const DATABASE_UNREADABLE = "the server's database cannot be read: nothing can be saved until an operator repairs or restores it"

/** How long a "readable" answer of the probe stands before a write asks the file again. */
const READABLE_FOR_MS = 1_000

/**
 * Whether the database file can be read, shared by /health and the write guard (http/pipeline.ts).
 * The server's connection answers from its page cache after the file under it was damaged, so
 * writes kept being acknowledged and were lost at the next start (issue 28). The probe
 * (db/read-probe.ts) reads the file itself: /health asks it on every call; a write asks it when
 * its last answer is a second old, and on every write while it says unreadable, so writes resume
 * as soon as the file is readable again.
 */
export class DatabaseReadWatch {
  private cause: string | null = null
  private checkedAt = -Infinity

  constructor(
    private readonly probe: () => string | null,
    private readonly deps: Pick<AppDeps, 'clock'>,
  ) {}

  /** Reads the file now: null, or why it cannot be read. */
  check(): string | null {
    this.cause = this.probe()
    this.checkedAt = this.deps.clock.now().getTime()
    return this.cause
  }

  /** For a write: null, or why the file cannot be read (from a probe at most a second old while readable). */
  unreadable(): string | null {
    if (this.cause === null && this.deps.clock.now().getTime() - this.checkedAt < READABLE_FOR_MS) return null
    return this.check()
  }
}

const watches = new WeakMap<object, DatabaseReadWatch>()

/** The database read watch of an app (one per database). */
export function databaseReadWatchOf(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>): DatabaseReadWatch {
  let w = watches.get(deps.db)
  if (!w) {
    // The file probe is SQLite's (a damaged file under a caching connection); PostgreSQL's own errors say when it cannot read.
    const probe = isPostgres(deps.db) ? () => null : databaseReadProbe(join(deps.config.dataDir, DB_FILE))
    watches.set(deps.db, (w = new DatabaseReadWatch(probe, deps)))
  }
  return w
}
