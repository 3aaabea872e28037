import { SQL } from 'bun'

/**
 * The suite's PostgreSQL mode. With `GLITCHBOX_TEST_PG` set to a server (`postgres://user@host:port`,
 * no database), every test app gets a database of its own, cloned from a template that the global
 * setup migrated once (pg-engine.global.ts), so a test app starts as fast as on SQLite. `.ci/run` runs
 * the suite this way on a cluster it starts (scripts/pg/cluster.sh).
 */
export const TEST_PG_ENV = 'GLITCHBOX_TEST_PG'
const TEMPLATE_ENV = 'GLITCHBOX_TEST_PG_TEMPLATE'
/** A fixed key for test apps: PostgreSQL mode requires GLITCHBOX_SECRET_KEY (32 bytes, base64). */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64')

export const testPgServer = () => process.env[TEST_PG_ENV]?.replace(/\/+$/, '')
export const testPgTemplate = () => process.env[TEMPLATE_ENV]!
export const setTestPgTemplate = (name: string) => {
  process.env[TEMPLATE_ENV] = name
}

let counter = 0
/** A fresh database name for one test app of this worker. */
export const nextTestDatabase = () => `${testPgTemplate()}_${process.pid}_${(globalThis as { __vitest_worker__?: { ctx?: { workerId?: number } } }).__vitest_worker__?.ctx?.workerId ?? 0}_${counter++}`

/** Runs `fn` with a connection to the server's maintenance database. */
export async function withAdmin<T>(fn: (sql: SQL) => Promise<T>): Promise<T> {
  const sql = new SQL(`${testPgServer()}/postgres`, { max: 1 })
  try {
    return await fn(sql)
  } finally {
    await sql.close()
  }
}

/** Creates `name` as a copy of the migrated template (CREATE DATABASE … TEMPLATE copies files: fast). */
export const createTestDatabase = (name: string) => withAdmin(async (sql) => void (await sql.unsafe(`CREATE DATABASE "${name}" TEMPLATE "${testPgTemplate()}"`)))

/** Drops `name`, closing what still holds it. */
export const dropTestDatabase = (name: string) => withAdmin(async (sql) => void (await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)))

/** Whether this run is on SQLite (the default); engine-specific tests skip with `it.skipIf(!onSqlite)`. */
export const onSqlite = !testPgServer()
