import type { Db, Tx } from '../../db/client'

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
 */
export class WriteBatcher {
  private queue: Pending[] = []
  private scheduled = false

  constructor(
    private db: Db,
    /** Largest number of writes in one transaction, so one commit never holds many answers back. */
    private maxBatch = 256,
  ) {}

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
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    if (batch.length > 1) {
      let results: unknown[] | null = null
      try {
        results = this.db.transaction((tx) => batch.map((item) => item.fn(tx)))
      } catch {
        // Some write failed: fall back to one transaction per write, below.
      }
      if (results) {
        batch.forEach((item, i) => item.resolve(results[i]))
        return
      }
    }
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
