import type { Database } from 'bun:sqlite'
import { type Db, rawSqlite, type Tx } from '../../db/client'

/** A write of the group: runs inside the shared transaction. */
type Write<T> = (tx: Tx) => T

interface Pending {
  fn: Write<unknown>
  resolve: (value: any) => void
  reject: (err: unknown) => void
}

/**
 * Group commit for hot write paths: writes queued in the same turn of the event loop run in one
 * SQLite transaction, and every caller's promise settles only after that COMMIT. A commit costs far
 * more than a row (WAL pages, a new FTS5 segment), so under load this multiplies ingest throughput
 * while keeping "answered means durable".
 *
 * Writes run back to back without savepoints (a savepoint makes FTS5 flush a segment per write).
 * When one throws, the shared transaction rolls back and each write of the batch runs again in its
 * own transaction, so a failure only ever affects its own caller. Writes must therefore touch
 * nothing but the database (their domain events only enqueue jobs inside the transaction).
 *
 * While another connection (the job thread, a CLI command) holds the write lock, the batch waits
 * without blocking the event loop: it tries to take the lock without SQLite's busy handler and, when
 * that fails, tries again 1 ms later, the writes arriving meanwhile joining it. The busy handler
 * sleeps ever longer (1, 2, 5 … 50, 100 ms): when background steps took the lock several times in a
 * row, a commit waiting in it stalled the request thread for 230-330 ms. Past the usual 5 s
 * (`lockWaitMs`, the connection's busy_timeout), the batch's writes fail with SQLite's busy error,
 * as writes waiting in the busy handler would.
 */
export class WriteBatcher {
  private queue: Pending[] = []
  private scheduled = false
  /** When the first attempt of the waiting batch found the write lock taken; null when none waits. */
  private waitingSince: number | null = null
  private retry: ReturnType<typeof setTimeout> | null = null
  private sqlite: Database

  constructor(
    private db: Db,
    /** Largest number of writes in one transaction, so one commit never holds many answers back. */
    private maxBatch = 256,
    /** How long a batch waits for the write lock before it fails (the connection's busy_timeout). */
    private lockWaitMs = 5000,
  ) {
    this.sqlite = rawSqlite(db)
  }

  /** The connection's busy_timeout: 0 to try the lock once, else how long a write waits for it. */
  private busyTimeout(ms: number): void {
    this.sqlite.run(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(ms))}`)
  }

  /**
   * Runs `fn` in a transaction shared with the other writes of this turn, in the order they came;
   * resolves with its result after commit. A write never learns whether it shares a commit, so
   * writes arriving together are decided exactly as they would be one by one.
   */
  run<T>(fn: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject })
      if (this.queue.length >= this.maxBatch) this.flush()
      else if (!this.scheduled) {
        this.scheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.scheduled = false
    if (this.retry) {
      clearTimeout(this.retry)
      this.retry = null
    }
    const batch = this.queue
    if (batch.length === 0) return
    // The lock is tried without the busy handler; once it is ours, statements wait as usual.
    let locked = false
    let results: unknown[]
    this.busyTimeout(0)
    try {
      results = this.db.transaction((tx) => {
        locked = true
        this.busyTimeout(this.lockWaitMs)
        return batch.map((item) => item.fn(tx))
      })
    } catch (err) {
      if (!locked && isBusy(err)) {
        this.waitingSince ??= performance.now()
        if (performance.now() - this.waitingSince < this.lockWaitMs) {
          // The lock is taken: the batch (and whatever joins it) tries again in a moment.
          this.retry = setTimeout(() => this.flush(), 1)
          return
        }
        // The lock never came: every write of the batch fails as a write waiting in the busy handler would.
        this.settle()
        for (const item of batch) item.reject(err)
        return
      }
      this.settle()
      // A write of one: its own error. Otherwise some write failed: one transaction per write, below.
      if (batch.length === 1) batch[0]!.reject(err)
      else this.oneByOne(batch)
      return
    } finally {
      this.busyTimeout(this.lockWaitMs)
    }
    this.settle()
    batch.forEach((item, i) => item.resolve(results[i]))
  }

  /** The batch is done with (committed or failed): the next writes start a new one. */
  private settle(): void {
    this.queue = []
    this.waitingSince = null
  }

  private oneByOne(batch: Pending[]): void {
    for (const item of batch) {
      try {
        item.resolve(this.db.transaction((tx) => item.fn(tx)))
      } catch (error) {
        item.reject(error)
      }
    }
  }
}

const batchers = new WeakMap<Db, WriteBatcher>()

/** The database's one group-commit queue: every hot write path (ingest, sessions, events, perf) shares it. */
export function writeBatcherOf(db: Db): WriteBatcher {
  let b = batchers.get(db)
  if (!b) batchers.set(db, (b = new WriteBatcher(db)))
  return b
}

/** SQLite's "the database is locked" (SQLITE_BUSY and its extended codes). */
const isBusy = (err: unknown): boolean => /^SQLITE_BUSY/.test(String((err as { code?: unknown }).code ?? ''))
