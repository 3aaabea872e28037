import { describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { rowsOf } from '../../src/db/client'
import { compiledOnce, ONE_TIME_STATEMENTS_KEPT } from '../../src/db/prepared-fast'
import { createTestApp } from '../helpers/test-app'

/** A connection that counts what it compiles and finalizes. */
function countingConnection() {
  const compiled: string[] = []
  const finalized: string[] = []
  return {
    compiled,
    finalized,
    prepare(sql: string) {
      compiled.push(sql)
      return { sql, finalize: () => void finalized.push(sql) }
    },
  }
}

describe('one-time statements compiled once per SQL text', () => {
  it('hands back the statement compiled before for the same text', () => {
    const conn = countingConnection()
    const cached = compiledOnce(conn, 3)
    const first = cached.prepare('SELECT 1')
    expect(cached.prepare('SELECT 1')).toBe(first)
    cached.prepare('SELECT 2')
    expect(conn.compiled).toEqual(['SELECT 1', 'SELECT 2'])
  })

  it('finalizes the least recently used statement past its bound, and compiles it again when asked', () => {
    const conn = countingConnection()
    const cached = compiledOnce(conn, 2)
    cached.prepare('a')
    cached.prepare('b')
    cached.prepare('a') // a is now the most recently used
    cached.prepare('c') // evicts b
    expect(conn.finalized).toEqual(['b'])
    cached.prepare('a')
    expect(conn.compiled).toEqual(['a', 'b', 'c'])
    cached.prepare('b')
    expect(conn.compiled).toEqual(['a', 'b', 'c', 'b'])
    expect(conn.finalized).toEqual(['b', 'c'])
  })

  it('queries awaited directly answer afresh on every run, past the bound too', async () => {
    const t = createTestApp()
    try {
      // More distinct texts than a connection keeps, the whole set twice: the second round compiles
      // the evicted ones again, and every run binds its own value.
      for (let round = 0; round < 2; round++) {
        for (let n = 1; n <= ONE_TIME_STATEMENTS_KEPT + 44; n++) {
          const rows = await t.deps.db.read((q) => rowsOf<{ total: number }>(q, sql`SELECT ${sql.raw(String(n))} + ${n * 10 + round} AS total`))
          expect(rows).toEqual([{ total: n + n * 10 + round }])
        }
      }
    } finally {
      t.close()
    }
  })
})
