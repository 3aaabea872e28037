import { SQL } from 'bun'
import { sql } from 'drizzle-orm'
import { execute } from '../../src/db/client'
import type { TestApp } from './test-app'

/**
 * Rows of a raw SQL query (`?` placeholders, SQL both engines read) on a test app's database, for
 * asserting effects, shaped as SQLite gives them on either engine. In the suite's PostgreSQL mode it
 * reads on a connection of its own with int8 as BigInt, so counts and epoch columns come back as
 * numbers (the app's pool gives them as strings, which only Drizzle's typed columns turn back).
 */
export async function sqlRows<T = Record<string, any>>(t: TestApp, text: string, ...params: (string | number | null)[]): Promise<T[]> {
  if (!t.config.databaseUrl) return t.sqlite.query(text).all(...params) as T[]
  return pgRows<T>(t.config.databaseUrl, text, ...params)
}

/** `sqlRows` on the PostgreSQL database at `url` (a test's own connection): for a server in another process. */
export async function pgRows<T = Record<string, any>>(url: string, text: string, ...params: (string | number | null)[]): Promise<T[]> {
  let n = 0
  const client = new SQL(url, { max: 1, bigint: true })
  try {
    const rows = (await client.unsafe(text.replace(/\?/g, () => `$${++n}`), params)) as Record<string, unknown>[]
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))) as T[]
  } finally {
    await client.close()
  }
}

/** Raw SQL run for its effect (`?` placeholders, SQL both engines read) through the test app's seam. */
export async function sqlRun(t: TestApp, text: string, ...params: (string | number | null)[]): Promise<void> {
  const parts = text.split('?')
  const query = sql.join(parts.map((part, i) => (i < params.length ? sql`${sql.raw(part)}${params[i]}` : sql.raw(part))))
  await t.deps.db.write((q) => execute(q, query))
}
