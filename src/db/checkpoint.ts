import type { Database } from 'bun:sqlite'
import { closeDb, rawSqlite, type Db } from './client'
import { isPostgres } from './pg/client'

/**
 * WAL pages the request thread lets pile up before it checkpoints on its own. While the job thread
 * runs, it checkpoints every second (`checkpointWal`), so this is only a safety net (64 MB).
 */
export const REQUEST_THREAD_AUTOCHECKPOINT_PAGES = 16_000

/**
 * Hands WAL checkpointing from the request thread's connection to the job thread. By default
 * SQLite checkpoints inside the COMMIT that crosses 1,000 WAL pages: on the request thread that is
 * a copy of ~4 MB into the database file plus an fsync, in the middle of a request. Measured with
 * batched 2 KB report inserts, commits cost 96-173 µs a report that way, against 39-65 µs without.
 */
export function deferCheckpoints(sqlite: Database): void {
  sqlite.exec(`PRAGMA wal_autocheckpoint = ${REQUEST_THREAD_AUTOCHECKPOINT_PAGES}`)
  // After the WAL restarts, the file is cut back to 64 MB instead of keeping its peak size.
  sqlite.exec('PRAGMA journal_size_limit = 67108864')
}

/** `deferCheckpoints` for the server's database; PostgreSQL checkpoints its own WAL, in its own processes. */
export function deferServerCheckpoints(db: Db): void {
  if (!isPostgres(db)) deferCheckpoints(rawSqlite(db))
}

/** Whether the database has a WAL of ours to checkpoint (SQLite), for the job thread's checkpoint schedule. */
export const checkpointsOwnWal = (db: Db) => !isPostgres(db)

/**
 * Copies committed WAL pages into the database file without blocking the writer or readers
 * (PASSIVE). It repeats while writers keep adding pages, at most 4 times, so that it usually ends
 * caught up and the next write restarts the WAL from its beginning. Returns the pages copied.
 */
export function checkpointWal(sqlite: Database): number {
  const checkpoint = sqlite.prepare<{ busy: number; log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(PASSIVE)')
  let copied = 0
  try {
    for (let round = 0; round < 4; round++) {
      const { log, checkpointed } = checkpoint.all()[0]!
      copied = checkpointed
      if (log <= 0 || checkpointed >= log) break
    }
  } finally {
    checkpoint.finalize()
  }
  return copied
}

/** Frames in the WAL (`log`) and how many of them are in the database file (`checkpointed`). */
const walState = (sqlite: Database) => sqlite.query<{ log: number; checkpointed: number }, []>('PRAGMA wal_checkpoint(NOOP)').get()!

/**
 * One tick of the job thread's checkpoint schedule (once a second): checkpoints, then again every
 * `everyMs` while writes keep adding to the WAL, for up to `forMs`. Under a burst of SDK submits
 * the WAL grew by ~65 MB a second, so a checkpoint a second let it reach the request thread's
 * 64 MB safety net about once a second, and that commit paid a 55-95 ms checkpoint of its own.
 * Returns how many checkpoints ran.
 */
export async function checkpointWalWhileWriting(sqlite: Database, forMs = 900, everyMs = 100): Promise<number> {
  const until = performance.now() + forMs
  let runs = 1
  checkpointWal(sqlite)
  let seen = walState(sqlite).log
  while (performance.now() + everyMs < until) {
    await Bun.sleep(everyMs)
    const { log } = walState(sqlite)
    // Nothing written since the last checkpoint: it is caught up (or the WAL started over empty).
    if (log === seen) break
    checkpointWal(sqlite)
    seen = walState(sqlite).log
    runs++
  }
  return runs
}

/** Folds the whole WAL into the database file and truncates it (on shutdown); returns 0, or non-zero while a reader or writer kept it busy. */
export function truncateWal(sqlite: Database): number {
  return sqlite.prepare<{ busy: number }, []>('PRAGMA wal_checkpoint(TRUNCATE)').all()[0]!.busy
}

/**
 * On shutdown, after the job thread stopped: folds the WAL into the SQLite file and truncates it,
 * then closes the connections (on PostgreSQL: closes the pool). Right after the job thread stops the
 * checkpoint can find the database busy for a moment (seen in about half of quick start-stop runs),
 * so it is retried for up to ~2 s. `folded`: false when the WAL stays (it is replayed at the next
 * start); `error`: why the checkpoint failed (the database cannot be read), the connections closed all the same.
 */
export async function checkpointAndClose(db: Db): Promise<{ folded: boolean; error?: unknown }> {
  let folded = true
  let error: unknown
  if (!isPostgres(db)) {
    let busy = 1
    try {
      for (let tries = 0; busy !== 0 && tries < 100; tries++) {
        if (tries > 0) await Bun.sleep(20)
        busy = truncateWal(rawSqlite(db))
      }
    } catch (err) {
      error = err
    }
    folded = busy === 0
  }
  await closeDb(db)
  return { folded, error }
}
