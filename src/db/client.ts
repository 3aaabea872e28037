import { Database } from 'bun:sqlite'
import { drizzle } from 'drizzle-orm/bun-sqlite'
import * as schema from './schema'

export type Db = ReturnType<typeof createDb>
/** The transaction handle Drizzle passes to `db.transaction(cb)`; `Db` itself also fits where a tx is accepted. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
/** Either the database or an open transaction: repositories accept both. */
export type DbOrTx = Db | Tx

/** Opens the SQLite file with the pragmas a server needs (WAL, NORMAL sync, FKs, busy timeout). */
export function openSqlite(path: string, opts: { readonly?: boolean } = {}): Database {
  const sqlite = new Database(path, opts.readonly ? { readonly: true } : { create: true, readwrite: true })
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
  return sqlite
}

/**
 * Drizzle over an open bun:sqlite handle. Transactions begin IMMEDIATE: the server's request thread,
 * its job thread and CLI commands write to one file, and a deferred transaction that reads before it
 * writes fails with SQLITE_BUSY (without waiting) when another connection committed in between.
 * Taking the write lock up front makes it wait its turn under busy_timeout instead.
 */
export function createDb(sqlite: Database) {
  const db = drizzle(sqlite, { schema })
  const transaction = db.transaction.bind(db)
  db.transaction = ((fn, config) => transaction(fn, { behavior: 'immediate', ...config })) as typeof db.transaction
  return db
}

/** The raw handle under a Drizzle database, for pragmas, backup and benchmarks only. */
export function rawSqlite(db: Db): Database {
  return (db as unknown as { $client: Database }).$client
}
