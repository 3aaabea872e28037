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

// One maintenance connection per test file for the clones and drops of its test apps (a connection
// costs ~10 ms); pg-engine.setup.ts closes it after the file.
let admin: SQL | undefined
const adminSql = () => (admin ??= new SQL(`${testPgServer()}/postgres`, { max: 2 }))

/** Runs a statement on the server's maintenance database (creating and dropping databases). */
export const adminQuery = async (text: string) => void (await adminSql().unsafe(text))

/**
 * Creates `name` as a copy of the migrated template. FILE_COPY copies the template's files after a
 * checkpoint, which costs nothing on the suite's cluster (fsync off): ~40 ms against ~70 ms for
 * PostgreSQL 15's default WAL_LOG, which writes every block of the copy to the WAL.
 */
export const createTestDatabase = (name: string) => adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${testPgTemplate()}" STRATEGY FILE_COPY`)

/** Drops `name`, closing what still holds it. */
export const dropTestDatabase = (name: string) => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)

const dropping = new Set<Promise<void>>()
/**
 * Drops `name` without making the test wait (a test app's close): the next test runs while PostgreSQL
 * removes the files. pg-engine.setup.ts waits for every drop after the file, so a failed one still fails it.
 */
export function dropTestDatabaseLater(name: string): void {
  const dropped = dropTestDatabase(name).finally(() => dropping.delete(dropped))
  dropping.add(dropped)
}

/** Waits for the drops still under way, then closes the maintenance connection. */
export async function settleTestDatabases(): Promise<void> {
  await Promise.all(dropping)
  await admin?.close()
  admin = undefined
}

/** Whether this run is on SQLite (the default); engine-specific tests skip with `it.skipIf(!onSqlite)`. */
export const onSqlite = !testPgServer()
