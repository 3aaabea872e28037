import { join } from 'node:path'
import { SQL } from 'bun'
import { afterEach, beforeEach, describe } from 'vitest'
import { openSqlite } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { migratePg } from '../../src/db/pg/migrate'
import { databaseParts } from '../../src/modules/registry'
import { createTestDatabase, dropTestDatabase, testPgServer, testPgTemplate } from './pg-engine'
import { removeTempDir, tempDir } from './temp-dirs'

/**
 * A database migrated with every module's parts, driven with plain SQL (literal values only, written so
 * both engines read it), so one scenario checks a trigger on SQLite and its PostgreSQL form alike
 * (test/db/pg-parts/).
 */
export interface RawEngine {
  name: 'sqlite' | 'postgres'
  run(sql: string): Promise<void>
  rows<T>(sql: string): Promise<T[]>
  close(): Promise<void>
}

/** A new SQLite file migrated by `migrate` (src/db/migrate.ts). */
export async function sqliteEngine(): Promise<RawEngine> {
  const dir = tempDir('raw-engine')
  const db = openSqlite(join(dir, 'db.sqlite'))
  migrate(db, databaseParts)
  return {
    name: 'sqlite',
    run: async (sql) => void db.exec(sql),
    rows: async <T>(sql: string) => db.query(sql).all() as T[],
    close: async () => {
      db.close()
      removeTempDir(dir)
    },
  }
}

/** A new PostgreSQL database cloned from the suite's migrated template, then its parts run again: they must be idempotent. */
export async function pgEngine(): Promise<RawEngine> {
  const name = `${testPgTemplate()}_raw_${crypto.randomUUID().slice(0, 8)}`
  await createTestDatabase(name)
  const pool = new SQL(`${testPgServer()}/${name}`, { max: 1 })
  // Forget that the template ran the parts (src/db/pg/migrate.ts skips them on a restart), so they run twice here.
  await pool.unsafe('COMMENT ON TABLE glitchbox_migrations IS NULL')
  await migratePg(pool, databaseParts)
  return {
    name: 'postgres',
    run: async (sql) => void (await pool.unsafe(sql)),
    rows: async <T>(sql: string) => [...((await pool.unsafe(sql)) as T[])],
    close: async () => {
      await pool.close()
      await dropTestDatabase(name)
    },
  }
}

/**
 * Declares the scenarios of `body` on SQLite always, and on PostgreSQL in the suite's PostgreSQL mode
 * (skipped otherwise). `e` is a new database for each test, seeded with SEED_SQL.
 */
export function onBothEngines(title: string, body: (e: Omit<RawEngine, 'close'>) => void): void {
  for (const [name, open, skip] of [['SQLite', sqliteEngine, false], ['PostgreSQL', pgEngine, !testPgServer()]] as const) {
    describe.skipIf(skip)(`${title} on ${name}`, () => {
      let current: RawEngine
      beforeEach(async () => {
        current = await open()
        for (const s of SEED_SQL) await current.run(s)
      })
      afterEach(() => current.close())
      body({ get name() { return current.name }, run: (sql) => current.run(sql), rows: (sql) => current.rows(sql) })
    })
  }
}

/** A user, an account and projects `p1` and `p2`, the rows every scenario's reports hang from. */
export const SEED_SQL = [
  `INSERT INTO users (id, email, name, created_at, updated_at) VALUES ('u1', 'a@example.com', 'A', 0, 0)`,
  `INSERT INTO accounts (id, name, owner_id, plan, created_at, updated_at) VALUES ('a1', 'A', 'u1', 'free', 0, 0)`,
  `INSERT INTO projects (id, account_id, name, slug, api_key, created_at, updated_at) VALUES ('p1', 'a1', 'P1', 'p1', 'k1', 0, 0), ('p2', 'a1', 'P2', 'p2', 'k2', 0, 0)`,
]

/** An INSERT of a live report of `project` numbered `number` (seq = number + 100 * project's digit), with extra columns. */
export function reportSql(project: 'p1' | 'p2', number: number, extra: Record<string, string | number | null> = {}): string {
  const seq = number + (project === 'p2' ? 100 : 0)
  const cols: Record<string, string | number | null> = {
    seq,
    id: `r${seq}`,
    project_id: project,
    report_number: number,
    title: `Report ${number}`,
    description: '',
    created_at: 0,
    updated_at: 0,
    ...extra,
  }
  const lit = (v: string | number | null) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`)
  return `INSERT INTO reports (${Object.keys(cols).join(', ')}) VALUES (${Object.values(cols).map(lit).join(', ')})`
}
