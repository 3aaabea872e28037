import { createPgDb, databaseReady, pgPool } from '../../src/db/pg/client'
import { migratePg } from '../../src/db/pg/migrate'
import { databaseParts } from '../../src/modules/registry'
import { SQL } from 'bun'
import { setTestPgTemplate, testPgServer } from './pg-engine'

/** Runs `fn` with a connection to the server's maintenance database (this process has no test file's). */
async function withAdmin<T>(fn: (sql: SQL) => Promise<T>): Promise<T> {
  const sql = new SQL(`${testPgServer()}/postgres`, { max: 1 })
  try {
    return await fn(sql)
  } finally {
    await sql.close()
  }
}

/**
 * Vitest global setup of the PostgreSQL mode (pg-engine.ts): migrates a template database once; after
 * the run, drops it and every test database cloned from it. Does nothing on SQLite.
 */
export default async function setup() {
  if (!testPgServer()) return
  const template = `gb_test_${process.pid}`
  setTestPgTemplate(template)
  await withAdmin(async (sql) => {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`)
    await sql.unsafe(`CREATE DATABASE "${template}"`)
  })
  const db = createPgDb(`${testPgServer()}/${template}`, { max: 1, prepare: (pool) => migratePg(pool, databaseParts) })
  await databaseReady(db)
  await pgPool(db)!.close()
  return async () => {
    await withAdmin(async (sql) => {
      const rows = (await sql`SELECT datname FROM pg_database WHERE datname LIKE ${`${template}%`}`) as { datname: string }[]
      for (const r of rows) await sql.unsafe(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`)
    })
  }
}
