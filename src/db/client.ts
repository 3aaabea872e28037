import { AsyncLocalStorage } from 'node:async_hooks'
import { Database } from 'bun:sqlite'
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import { GroupCommit } from './group-commit'
import { fasterPreparedStatements } from './prepared-fast'
import { literalLimits } from './literal-limits'
import { registerWriteScope } from './write-scope'
import { isPostgres, pgPool, pgWriteInTurn } from './pg/client'

export type Db = ReturnType<typeof createDb>
/** The transaction handle Drizzle passes to a legacy synchronous `db.transaction(cb)`. */
type DrizzleTx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** What a write runs on: the seam's `write` callback gets the `Db` itself, a legacy transaction its Drizzle handle. */
export type Tx = Db | DrizzleTx
/** Either the database or an open transaction: repositories accept both. */
export type DbOrTx = Tx

/** Opens the SQLite file with the pragmas a server needs (WAL, NORMAL sync, FKs, busy timeout). */
export function openSqlite(path: string, opts: { readonly?: boolean } = {}): Database {
  const sqlite = new Database(path, opts.readonly ? { readonly: true } : { create: true, readwrite: true })
  try {
    // busy_timeout first, so the WAL switch waits for a concurrent writer instead of failing.
    sqlite.exec('PRAGMA busy_timeout = 5000')
    // Only a new, empty file takes this (an existing one would need a full VACUUM): retention then gives
    // freed pages back to the file system in small steps (modules/retention). Inserts measured no slower.
    if (!opts.readonly) sqlite.exec('PRAGMA auto_vacuum = INCREMENTAL')
    if (!opts.readonly) sqlite.exec('PRAGMA journal_mode = WAL')
    // Without NORMAL, every commit fsyncs the WAL: single-row inserts run ~50x slower.
    sqlite.exec('PRAGMA synchronous = NORMAL')
    sqlite.exec('PRAGMA foreign_keys = ON')
    sqlite.exec('PRAGMA temp_store = MEMORY')
    sqlite.exec('PRAGMA cache_size = -32000')
  } catch (err) {
    // A file that is not a database fails its first statement: the handle is not kept open.
    sqlite.close()
    throw err
  }
  return sqlite
}

/** What `read` and `write` callbacks query with: Drizzle over the right connection. */
export type Query = Db

/**
 * The database seam: every repository reaches the data through these two calls, and only `src/db`
 * knows the engine behind them.
 * - `write(fn)` runs `fn` all-or-nothing: it may await, and a throw anywhere leaves nothing behind.
 *   On SQLite the seam serialises writers itself (group-commit.ts) and issues BEGIN/COMMIT.
 * - `read(fn)` runs `fn` on the read-only connection, so a read never sees another request's open
 *   transaction; inside a `write` it runs on the writer's transaction and sees its own rows.
 * A `write` inside a `write` joins the outer transaction as it is, without a savepoint (a savepoint
 * makes FTS5 flush a segment per write): its failure is the outer write's failure, so let it throw.
 */
export interface Seam {
  read<T>(fn: (q: Query) => T | Promise<T>): Promise<T>
  write<T>(fn: (q: Query) => T | Promise<T>): Promise<T>
}

/**
 * Raw SQL a repository needs where Drizzle's builders cannot say it, on either engine: the rows of a
 * query. (Drizzle's SQLite database answers `all`, its PostgreSQL one `execute`.) Bound parameters
 * only: `sql` templates, never strings built from input.
 */
export async function rowsOf<T>(q: Query, query: SQLWrapper): Promise<T[]> {
  const engine = q as unknown as { all?: (s: SQLWrapper) => T[]; execute: (s: SQLWrapper) => Promise<T[]> }
  return engine.all ? engine.all(query) : [...(await engine.execute(query))]
}

/**
 * The first column of each row a prepared select answers, as a plain array. SQLite's statement reads
 * its rows as value arrays (Drizzle's `values`), with no object made per row: a list's walk reads up
 * to 10,001 seqs, ~0.5 ms as objects. PostgreSQL's has no `values`: its mapped rows are read.
 */
export async function firstColumnOf<T>(statement: { execute(params: Record<string, unknown>): PromiseLike<unknown> }, params: Record<string, unknown>): Promise<T[]> {
  const values = (statement as { values?: (params: Record<string, unknown>) => unknown[][] }).values
  if (values) return values.call(statement, params).map((row) => row[0] as T)
  const rows = (await statement.execute(params)) as Record<string, T>[]
  return rows.map((row) => Object.values(row)[0]!)
}

/** Raw SQL run for its effect, on either engine (see rowsOf). */
export async function execute(q: Query, query: SQLWrapper): Promise<void> {
  const engine = q as unknown as { run?: (s: SQLWrapper) => unknown; execute: (s: SQLWrapper) => Promise<unknown> }
  if (engine.run) engine.run(query)
  else await engine.execute(query)
}

/**
 * A subquery that picks rows to claim, locked on PostgreSQL with FOR UPDATE SKIP LOCKED, so nodes
 * claiming at once each take different rows and never wait on each other. SQLite has one writer at a
 * time: the select stays as it is.
 */
export function skippingLocked<T>(select: T): T {
  const pg = select as { for?: (strength: 'update', config: { skipLocked: boolean }) => T }
  return typeof pg.for === 'function' ? pg.for('update', { skipLocked: true }) : select
}

/**
 * A write that runs after every earlier write of the same `key` and sees what they left, in the order
 * they were asked for: the submissions of one crash (project and grouping key), each stacked or filed
 * as if sent one by one. SQLite's group commit already runs writes in arrival order, one at a time; on
 * PostgreSQL, whose transactions run side by side, the key is queued and locked (pgWriteInTurn), and
 * writes of other keys run beside it: what they share (a project's report counter) is a row lock.
 */
export function writeInTurn<T>(db: Db, key: string, fn: (q: Query) => Promise<T>): Promise<T> {
  return isPostgres(db) ? pgWriteInTurn(db, key, fn) : db.write(fn)
}

/**
 * A select whose rows stay locked until the write that reads them ends: FOR UPDATE on PostgreSQL, so
 * concurrent writes that check and then change those rows take turns (a cap counted, then raised).
 * SQLite's single writer serialises them already: the select stays as it is.
 */
export function lockedForWrite<T>(select: T): T {
  const pg = select as { for?: (strength: 'update') => T }
  return typeof pg.for === 'function' ? pg.for('update') : select
}

/** The open write transaction of this async context, if any. */
interface WriteContext {
  open: boolean
}

/**
 * Drizzle over an open bun:sqlite handle, with the seam's `read` and `write`. `reader`: a read-only
 * connection to the same file for `read` (else reads use the write connection).
 *
 * Legacy synchronous transactions begin IMMEDIATE: the server's request thread, its job thread and
 * CLI commands write to one file, and a deferred transaction that reads before it writes fails with
 * SQLITE_BUSY (without waiting) when another connection committed in between. Taking the write lock
 * up front makes it wait its turn under busy_timeout instead.
 */
export function createDb(sqlite: Database, opts: { reader?: Database; lockWaitMs?: number } = {}) {
  // No `schema`: nothing uses Drizzle's relational API (db.query.*), and building its table map costs
  // every start-up a few ms per connection (issue 30).
  const base = drizzle(sqlite)
  fasterPreparedStatements(base)
  literalLimits(base)
  const transaction = base.transaction.bind(base)
  base.transaction = ((fn, config) => transaction(fn, { behavior: 'immediate', ...config })) as typeof base.transaction
  const context = new AsyncLocalStorage<WriteContext>()
  const inWrite = () => {
    const ctx = context.getStore()
    return ctx?.open ? ctx : undefined
  }
  const group = new GroupCommit(sqlite, async (fn) => {
    const ctx: WriteContext = { open: true }
    try {
      return await context.run(ctx, fn)
    } finally {
      ctx.open = false
    }
  }, 256, opts.lockWaitMs)
  const seam: Seam = {
    write(fn) {
      if (!inWrite()) return group.run(() => fn(db))
      // Inside a write it joins it, run at once (a deferred start only cost the hot path a turn of promises).
      try {
        return Promise.resolve(fn(db))
      } catch (err) {
        return Promise.reject(err)
      }
    },
    async read(fn) {
      let own = readers.get(db)
      if (inWrite() || !own) return fn(db)
      // A connection that read a damaged file keeps failing after the file is restored (the writer
      // recovers, the read-only reader does not): the next read opens a fresh one.
      if (own.stale) {
        own = readerOf(openSqlite(own.handle.filename, { readonly: true }), own.handle)
        readers.set(db, own)
      }
      try {
        return await fn(own.db)
      } catch (err) {
        if (isUnreadableFile(err)) own.stale = true
        throw err
      }
    },
  }
  const db = Object.assign(base, seam)
  registerWriteScope(db, inWrite)
  const readerOf = (handle: Database, replaced?: Database) => {
    try {
      replaced?.close()
    } catch {
      // Already closed, or busy: it is dropped all the same.
    }
    const reader = drizzle(handle)
    fasterPreparedStatements(reader)
    literalLimits(reader)
    return { handle, db: Object.assign(reader, seam) as unknown as typeof db, stale: false }
  }
  if (opts.reader) readers.set(db, readerOf(opts.reader))
  return db
}

/** SQLite's answers for a file that is not (or no longer) a readable database. */
function isUnreadableFile(err: unknown): boolean {
  const codes = [err, (err as { cause?: unknown })?.cause].map((e) => String((e as { code?: unknown })?.code ?? ''))
  return codes.some((c) => /^SQLITE_(NOTADB|CORRUPT|IOERR)/.test(c))
}

/** Closes the database's connections (the writer and, when it has one, the read-only reader; or the PostgreSQL pool). */
export function closeDb(db: Db): Promise<void> {
  const pool = pgPool(db)
  if (pool) return pool.close()
  readers.get(db)?.handle.close()
  rawSqlite(db).close()
  return Promise.resolve()
}

/** Each database's read-only connection, replaced when it read a damaged file (see `read`). */
const readers = new WeakMap<object, { handle: Database; db: Db; stale: boolean }>()

/** The raw handle under a Drizzle database, for pragmas, backup and benchmarks only. */
export function rawSqlite(db: Db): Database {
  return (db as unknown as { $client: Database }).$client
}

/** Whether a query handle (a `read`/`write` callback's argument) is PostgreSQL's: Drizzle's SQLite database answers `all` (see rowsOf). */
export const onPostgres = (q: Query): boolean => typeof (q as { all?: unknown }).all !== 'function'

/**
 * `table` read through the named index, for a hot query whose plan must not be left to chance: SQLite's
 * INDEXED BY hint. PostgreSQL has no hints (its planner picks the index itself): the table alone.
 */
export function indexedBy(q: Query, table: SQLWrapper, index: string): SQL {
  return onPostgres(q) ? sql`${table}` : sql`${table} INDEXED BY ${sql.raw(index)}`
}

/**
 * A statement (or a set of them) prepared once per connection and reused: `prepare(q)` runs the first
 * time a connection asks. For the statements a hot path runs on every write (ingest, the event
 * subscribers' lookups), and for repositories that keep nothing but the connection (the ingest path
 * asked for its repositories five times a filing: ~100 closures each); a connection that goes away
 * takes what was built for it with it.
 */
export function preparedPerConnection<T>(prepare: (q: Query) => T): (q: Query) => T {
  const cache = new WeakMap<Query, T>()
  return (q) => {
    let prepared = cache.get(q)
    if (prepared === undefined) cache.set(q, (prepared = prepare(q)))
    return prepared
  }
}

/** The parts of a Drizzle database (either engine's) that prepare raw SQL: internal, but stable across 0.4x. */
interface Preparing {
  session: { prepareQuery(query: unknown, fields: undefined, method: string | undefined, arrayMode: boolean): { all(params: Record<string, unknown>): unknown } }
  dialect: { sqlToQuery(query: SQL): unknown }
}

/**
 * Raw SQL (see rowsOf) prepared once per connection, for a read a hot path runs on every request:
 * `build(q)` is the statement with `sql.placeholder`s for its values, built the first time a
 * connection asks; each call runs it with `params`. Asked through rowsOf instead, the same SQL is
 * rendered and looked up again every call (~12 µs on a list page, measured on bun:sqlite).
 */
export function preparedRows<T>(build: (q: Query) => SQL): (q: Query, params: Record<string, unknown>) => Promise<T[]> {
  const statementOf = preparedPerConnection((q) => {
    const { session, dialect } = q as unknown as Preparing
    // SQLite's sessions take the method the statement runs with; PostgreSQL's take a statement name here.
    return session.prepareQuery(dialect.sqlToQuery(build(q)), undefined, onPostgres(q) ? undefined : 'all', false)
  })
  return async (q, params) => {
    const rows = (await statementOf(q).all(params)) as T[]
    // PostgreSQL's result is an array with the command's count beside the rows (see rowsOf).
    return onPostgres(q) ? [...rows] : rows
  }
}
