import type { Database, Statement } from 'bun:sqlite'

/** A write of the group: runs inside the shared transaction, may await, touches nothing but the database. */
export type GroupWrite<T> = () => T | Promise<T>

interface Pending {
  fn: GroupWrite<unknown>
  resolve: (value: any) => void
  reject: (err: unknown) => void
}

/**
 * The seam's writer on SQLite (src/db/seam.ts): one async mutex on the write connection, and group
 * commit. Writes queued in the same turn of the event loop run one after the other in one
 * transaction (`BEGIN IMMEDIATE` … `COMMIT` issued here, never by Drizzle: its bun-sqlite transaction
 * commits at the first `await` of an async callback), and every caller's promise settles only after
 * that COMMIT. A commit costs far more than a row (WAL pages, a new FTS5 segment), so under load this
 * multiplies ingest throughput while keeping "answered means durable". Only one batch is open at a
 * time: a write awaiting real I/O holds the others back, never interleaves with them.
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
export class GroupCommit {
  private queue: Pending[] = []
  private scheduled = false
  private running = false
  /** When the first attempt of the waiting batch found the write lock taken; null when none waits. */
  private waitingSince: number | null = null
  private retry: ReturnType<typeof setTimeout> | null = null

  constructor(
    private sqlite: Database,
    /** Runs a batch's writes inside the seam's transaction context (so nested reads and writes join it). */
    private inTransaction: <T>(fn: () => Promise<T>) => Promise<T>,
    /** Largest number of writes in one transaction, so one commit never holds many answers back. */
    private maxBatch = 256,
    /** How long a batch waits for the write lock before it fails (the connection's busy_timeout). */
    private lockWaitMs = 5000,
  ) {}

  /**
   * Runs `fn` in a transaction shared with the other writes of this turn, in the order they came;
   * resolves with its result after commit. A write never learns whether it shares a commit, so
   * writes arriving together are decided exactly as they would be one by one.
   */
  run<T>(fn: GroupWrite<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve, reject })
      this.schedule()
    })
  }

  private schedule(): void {
    if (this.running || this.retry) return
    if (this.queue.length >= this.maxBatch) void this.flush()
    else if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => {
        this.scheduled = false
        void this.flush()
      })
    }
  }

  private async flush(): Promise<void> {
    this.retry = null
    if (this.running || this.queue.length === 0) return
    this.running = true
    const batch = this.queue.slice(0, this.maxBatch)
    let begun: boolean
    try {
      begun = this.begin()
    } catch (err) {
      this.queue = this.queue.slice(batch.length)
      this.running = false
      // Writes still queued when the connection closed never run and never settle: the database is
      // closed at shutdown, once requests and jobs have stopped, and failing them would only raise
      // errors in callers nobody waits for any more (seen in tests that close an app under a request).
      if (isClosed(err)) return
      for (const item of batch) item.reject(err)
      return this.next()
    }
    if (!begun) {
      this.running = false
      this.waitingSince ??= performance.now()
      if (performance.now() - this.waitingSince < this.lockWaitMs) {
        // The lock is taken: the batch (and whatever joins it) tries again in a moment.
        this.retry = setTimeout(() => void this.flush(), 1)
        return
      }
      // The lock never came: every waiting write fails as a write waiting in the busy handler would.
      const failed = this.queue
      this.queue = []
      this.waitingSince = null
      const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })
      for (const item of failed) item.reject(busy)
      return
    }
    this.queue = this.queue.slice(batch.length)
    this.waitingSince = null
    try {
      const results = await this.inTransaction(async () => {
        const out: unknown[] = []
        for (const item of batch) out.push(await item.fn())
        return out
      })
      this.sqlite.exec('COMMIT')
      batch.forEach((item, i) => item.resolve(results[i]))
    } catch (err) {
      // Closed under the batch (see the begin failure above): nothing more can run.
      if (isClosed(err)) return
      this.rollback()
      // A write of one: its own error. Otherwise some write failed: one transaction per write, below.
      if (batch.length === 1) batch[0]!.reject(err)
      else await this.oneByOne(batch)
    }
    this.running = false
    this.next()
  }

  private next(): void {
    if (this.queue.length > 0) this.schedule()
  }

  /** Takes the write lock without the busy handler: false while another connection holds it. */
  private begin(): boolean {
    this.busyTimeout(0)
    try {
      // exec, not a kept statement: on a closed connection it throws, where a prepared one does nothing.
      this.sqlite.exec('BEGIN IMMEDIATE')
      return true
    } catch (err) {
      if (isBusy(err)) return false
      throw err
    } finally {
      this.busyTimeout(this.lockWaitMs)
    }
  }

  private rollback(): void {
    try {
      if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK')
    } catch (err) {
      // A connection closed meanwhile has nothing to roll back.
      if (!isClosed(err)) throw err
    }
  }

  private async oneByOne(batch: Pending[]): Promise<void> {
    for (const item of batch) {
      try {
        this.sqlite.exec('BEGIN IMMEDIATE')
        const result = await this.inTransaction(async () => item.fn())
        this.sqlite.exec('COMMIT')
        item.resolve(result)
      } catch (error) {
        if (isClosed(error)) return
        this.rollback()
        item.reject(error)
      }
    }
  }

  /** The connection's busy_timeout: 0 to try the lock once, else how long a statement waits for it. */
  private busyTimeout(ms: number): void {
    this.statement(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(ms))}`).run()
  }

  /** The pragmas of every attempt at the lock, prepared once: a batch waiting on another connection tries every millisecond. */
  private statements = new Map<string, Statement>()
  private statement(text: string): Statement {
    let st = this.statements.get(text)
    if (!st) this.statements.set(text, (st = this.sqlite.prepare(text)))
    return st
  }
}

/** bun:sqlite's answers on a connection already closed (running a statement, preparing one). */
const isClosed = (err: unknown): boolean => err instanceof Error && (err.message === 'Database has closed' || err.message === 'Cannot use a closed database')

/** SQLite's "the database is locked" (SQLITE_BUSY and its extended codes). */
const isBusy = (err: unknown): boolean => /^SQLITE_BUSY/.test(String((err as { code?: unknown }).code ?? ''))
