import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ReservedSQL } from 'bun'
import type { Config } from '../../config/config'
import { openSqlite } from '../client'
import { migrate } from '../migrate'
import { createPgDb, databaseReady, pgPool } from './client'
import { migratePg } from './migrate'
import type { DatabaseParts } from '../post-migrate'
import { DB_FILE } from '../../deps'
import { decodeSecretKey, SECRETS_KEY_FILE } from '../../secrets/secrets'
import { CliError } from '../../cli/cli-error'

const BATCH = 500

/**
 * `glitchbox migrate-to-postgres`: copies the SQLite database of GLITCHBOX_DATA_DIR, row for row, into
 * the empty PostgreSQL database of GLITCHBOX_DATABASE_URL (migrated first), so report numbers, ids,
 * settings and encrypted credentials move unchanged. Stored values are copied as SQLite holds them
 * (the PostgreSQL schema keeps its types: src/db/pg/schema.ts), in one transaction: a failure leaves the
 * target empty. Derived tables (counts, facets) are copied too, with the target's triggers off while
 * their sources are inserted, so nothing is counted twice. Files are not moved: see the README.
 */
export async function migrateToPostgres(config: Config, parts: DatabaseParts[], say: (line: string) => void): Promise<{ tables: number; rows: number }> {
  if (!config.databaseUrl) throw new CliError('set GLITCHBOX_DATABASE_URL to the PostgreSQL database to copy into')
  checkSameKey(config)
  const file = join(config.dataDir, DB_FILE)
  if (!existsSync(file)) throw new CliError(`no database to copy: ${file} does not exist`)
  const sqlite = openSqlite(file)
  const db = createPgDb(config.databaseUrl, { max: 1, prepare: (pool) => migratePg(pool, parts) })
  try {
    migrate(sqlite, parts)
    await databaseReady(db)
    const conn = await pgPool(db)!.reserve()
    try {
      const tables = await copyOrder(conn)
      const sqliteTables = new Set(sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all().map((r) => r.name))
      for (const t of tables) {
        const [row] = (await conn.unsafe(`SELECT EXISTS (SELECT 1 FROM "${t}") AS used`)) as { used: boolean }[]
        if (row!.used) throw new CliError(`the PostgreSQL database is not empty (table ${t} has rows): copy into a new database`)
      }
      let total = 0
      let copied = 0
      await conn.unsafe('BEGIN')
      try {
        for (const table of tables.filter((t) => sqliteTables.has(t))) {
          const rows = await copyTable(conn, sqlite, table)
          total += rows
          copied++
          if (rows > 0) say(`${table}: ${rows} row(s)`)
        }
        await resetIdentities(conn)
        await conn.unsafe('COMMIT')
      } catch (err) {
        await conn.unsafe('ROLLBACK')
        throw err
      }
      // The planner's statistics for the copied rows, at once: until autovacuum's next pass every
      // table reads as the empty one the schema created, and a list filtered by a version then scanned
      // the project's reports once per key row (10,001 keys against 20,000 reports: 8 s, not 0.1).
      say('updating the planner statistics (ANALYZE)')
      await conn.unsafe('ANALYZE')
      return { tables: copied, rows: total }
    } finally {
      await conn.release()
    }
  } finally {
    sqlite.close()
    await pgPool(db)!.close()
  }
}

/** Credentials are encrypted with the data directory's key: the nodes must use that same key. */
function checkSameKey(config: Config) {
  const path = join(config.dataDir, SECRETS_KEY_FILE)
  if (!existsSync(path)) return
  const own = decodeSecretKey(readFileSync(path, 'utf8'))
  const given = config.secretKey ? decodeSecretKey(config.secretKey) : null
  if (own && (!given || Buffer.compare(Buffer.from(own), Buffer.from(given)) !== 0)) {
    throw new CliError(`GLITCHBOX_SECRET_KEY must be the key of ${path}, which encrypts the stored credentials: set GLITCHBOX_SECRET_KEY="$(cat ${path})" here and on every node`)
  }
}

/** The target's tables, each after the tables its foreign keys point at. */
async function copyOrder(conn: ReservedSQL): Promise<string[]> {
  const tables = ((await conn`SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'glitchbox_migrations' ORDER BY tablename`) as { tablename: string }[]).map((r) => r.tablename)
  const edges = (await conn`
    SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
    FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`) as { child: string; parent: string }[]
  const parents = new Map(tables.map((t) => [t, new Set<string>()]))
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child.replace(/"/g, ''))?.add(e.parent.replace(/"/g, ''))
  const order: string[] = []
  const placed = new Set<string>()
  const place = (t: string, path: string[]) => {
    if (placed.has(t)) return
    if (path.includes(t)) throw new Error(`foreign keys form a circle: ${[...path, t].join(' → ')}`)
    for (const p of parents.get(t) ?? []) place(p, [...path, t])
    placed.add(t)
    order.push(t)
  }
  for (const t of tables) place(t, [])
  return order
}

/** Copies one table's rows, the columns both engines have (not generated ones), in batches. */
async function copyTable(conn: ReservedSQL, sqlite: ReturnType<typeof openSqlite>, table: string): Promise<number> {
  const pgColumns = ((await conn`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name = ${table} AND is_generated = 'NEVER'`) as { column_name: string }[]).map((r) => r.column_name)
  const sqliteColumns = new Set(sqlite.query<{ name: string }, [string]>('SELECT name FROM pragma_table_info(?)').all(table).map((r) => r.name))
  const columns = pgColumns.filter((c) => sqliteColumns.has(c))
  if (columns.length === 0) return 0
  await conn.unsafe(`ALTER TABLE "${table}" DISABLE TRIGGER USER`)
  let count = 0
  let batch: Record<string, unknown>[] = []
  const flush = async () => {
    if (batch.length === 0) return
    await conn`INSERT INTO ${conn(table)} ${conn(batch, ...columns)}`
    count += batch.length
    batch = []
  }
  // Rows in the table's own order, so a row referring to an older row of its table (a merge target) follows it.
  const withoutRowid = sqlite.query<{ wr: number }, [string]>('SELECT wr FROM pragma_table_list WHERE name = ?').get(table)?.wr === 1
  const select = `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table}"${withoutRowid ? '' : ' ORDER BY rowid'}`
  for (const row of sqlite.query<Record<string, unknown>, []>(select).iterate()) {
    batch.push(row)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  await conn.unsafe(`ALTER TABLE "${table}" ENABLE TRIGGER USER`)
  return count
}

/** Moves every identity column's sequence past the largest copied value, so new rows get fresh ids. */
async function resetIdentities(conn: ReservedSQL) {
  const identities = (await conn`
    SELECT table_name, column_name FROM information_schema.columns
    WHERE table_schema = 'public' AND is_identity = 'YES'`) as { table_name: string; column_name: string }[]
  for (const { table_name: t, column_name: c } of identities) {
    await conn.unsafe(`SELECT setval(pg_get_serial_sequence('"${t}"', '${c}'), coalesce((SELECT max("${c}") FROM "${t}"), 0) + 1, false)`)
  }
}
