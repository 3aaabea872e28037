import type { SQL } from 'bun'
import { type SQLWrapper, sql } from 'drizzle-orm'
import { BunSQLSession } from 'drizzle-orm/bun-sql/session'
import { PgDatabase, PgDialect } from 'drizzle-orm/pg-core'
import type { Db, Query, Seam } from '../client'
import { nulFreeClient } from './nul-free'
import { transactionRouted } from './transaction-client'
import { keyedTurns } from '../../lib/key-turns'
import { registerWriteScope } from '../write-scope'

// The seam on PostgreSQL. Repositories query with the SQLite table objects (Drizzle renders the SQL for
// the dialect of the database it is given; src/db/pg/schema.ts keeps the column types compatible), so a
// repository is written once for both engines.

/** PostgreSQL's codes for a transaction that lost a race and may simply run again. */
const RETRYABLE = new Set(['40001', '40P01'])
const MAX_ATTEMPTS = 5

/**
 * A connection pool to `url` with the seam's `read` and `write`. `max`: pool size. `prepare`: what must
 * happen before the first query (the migrations, src/db/pg/migrate.ts), given the pool; every read and
 * write waits for it, and `databaseReady(db)` lets start-up wait for it and fail early.
 */
export function createPgDb(url: string, opts: { max?: number; prepare?: (pool: SQL) => Promise<unknown> } = {}): Db {
  // Custom plans only: Bun prepares every statement, and after five runs PostgreSQL may switch to a
  // generic plan that cannot see the values. The list's filters are skewed (a version on 3% of reports,
  // "no assignee" on 30%), and a generic plan of the five-filter list took 17 s where the custom plan
  // takes 46 ms at 20,000 reports. Planning each run costs well under a millisecond here (about 1.9 ms
  // of a new report's 6 ms of PostgreSQL CPU; `auto` would save it, at that risk).
  // No parallel workers: starting two took ~25 ms of a list query whose own work was 0.4 ms, and on a
  // server answering many requests at once they only take cores from the others (the 1M-report list:
  // 6 shapes over 50 ms p95 instead of 8; scripts/bench/reports-list.ts).
  // No JIT: PostgreSQL compiles a plan costed over 100,000 (jit_above_cost) before running it, and
  // every list query is a short walk the estimate overrates: a common word within a version at 1M
  // reports spent ~10 ms of its ~210 ms compiling, each time (its plan, scripts/bench/reports-list.ts --plans).
  // Bun.SQL is read here, on PostgreSQL only: reading it loads Bun's SQL client (~10 ms), which a
  // server on SQLite would otherwise pay at start-up (issue 30).
  const client = new Bun.SQL(url, {
    max: opts.max ?? 20,
    idleTimeout: 30,
    connectionTimeout: 10,
    connection: { plan_cache_mode: 'force_custom_plan', max_parallel_workers_per_gather: '0', jit: 'off' },
  })
  const transactions = transactionRouted(nulFreeClient(client))
  // What drizzle({ client }) of 'drizzle-orm/bun-sql' builds, without importing that module: it reads
  // Bun.SQL as it loads (see above), and every SQLite start-up would load it.
  const dialect = new PgDialect()
  const base = new PgDatabase(dialect, new BunSQLSession(transactions.client, dialect, undefined), undefined)
  const ready = opts.prepare ? opts.prepare(client).then(() => undefined) : Promise.resolve()
  // Start-up awaits it (databaseReady); a failure left unawaited here must not end the process.
  ready.catch(() => {})
  const seam: Seam = {
    async read(fn) {
      // Inside a write, the statements run in its transaction and see its rows (transaction-client.ts).
      if (!transactions.current()) await ready
      return fn(db)
    },
    async write(fn) {
      // A write inside a write joins it, as on SQLite: one transaction, all or nothing.
      if (transactions.current()) return fn(db)
      await ready
      for (let attempt = 1; ; attempt++) {
        try {
          return await base.transaction(async () => fn(db))
        } catch (err) {
          // A serialization failure or deadlock rolled everything back: the callback runs again
          // (write callbacks do no I/O but the database's, by the seam's rule).
          if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(pgCode(err))) throw err
        }
      }
    },
  }
  const db = Object.assign(base, seam) as unknown as Db
  registerWriteScope(db, transactions.current)
  pools.set(db, { client, ready, inWrite: () => transactions.current() !== undefined, inTurn: keyedTurns() })
  return db
}

/** The SQLSTATE of a PostgreSQL error, or ''. */
export function pgCode(err: unknown): string {
  const e = err as { errno?: unknown; code?: unknown; cause?: { errno?: unknown; code?: unknown } }
  for (const v of [e?.errno, e?.cause?.errno, e?.code, e?.cause?.code]) if (typeof v === 'string' && /^[0-9A-Z]{5}$/.test(v)) return v
  return ''
}

const pools = new WeakMap<object, { client: SQL; ready: Promise<void>; inWrite: () => boolean; inTurn: ReturnType<typeof keyedTurns> }>()

/**
 * `db.write(fn)` in its turn among writes of the same `key` (see writeInTurn in ../client.ts): this
 * process queues them by key in call order, so they lock in the order they came, and inside the write
 * an advisory lock on the key, held to COMMIT, orders them with other nodes' writes. A write already
 * inside a write only takes the lock: queueing there could wait on a turn that waits on this
 * transaction's locks, a deadlock PostgreSQL cannot see.
 * The lock is granted before `fn` runs: under READ COMMITTED its statements then see what the
 * previous holder committed. (Sent together with `fn`'s statements, the lock went out after them:
 * Drizzle sends a statement only when it is awaited, and `fn` awaits its first read at once; two pools
 * raising one counter lost half their raises, and rollups counted rows twice.)
 */
export async function pgWriteInTurn<T>(db: Db, key: string, fn: (q: Query) => Promise<T>): Promise<T> {
  const pool = pools.get(db)!
  const locked = async (q: Query) => {
    await (q as unknown as { execute(s: SQLWrapper): Promise<unknown> }).execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
    return fn(q)
  }
  if (pool.inWrite()) return db.write(locked)
  return pool.inTurn(key, () => db.write(locked))
}

/** The pool under a PostgreSQL seam, or undefined for a SQLite one. */
export function pgPool(db: Db): SQL | undefined {
  return pools.get(db)?.client
}

/** Resolves once the database is prepared (migrated); rejects with why it could not be. */
export function databaseReady(db: Db): Promise<void> {
  return pools.get(db)?.ready ?? Promise.resolve()
}

/** Whether the database is PostgreSQL. */
export const isPostgres = (db: Db) => pools.has(db)
