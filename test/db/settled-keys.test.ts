// settledUpTo (src/db/settled-keys.ts): a cursor reader on PostgreSQL must not move past a key that a
// transaction still in progress took, though a later key has committed, or that row is never counted
// (the analytics rollups, the alerts' hourly counts). On SQLite rows commit in key order: no bound.
import { SQL } from 'bun'
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute, rowsOf } from '../../src/db/client'
import { settledUpTo } from '../../src/db/settled-keys'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const table = sql`cursor_rows`
const key = sql`id`
const upTo = (waitMs?: number) => t.deps.db.read((q) => settledUpTo(q, table, key, waitMs))

describe('settledUpTo on SQLite', () => {
  it('bounds nothing: one writer commits rows in key order', async (ctx) => {
    if (!onSqlite) ctx.skip()
    expect(await upTo()).toBeUndefined()
  })
})

describe.skipIf(onSqlite)('settledUpTo on PostgreSQL', () => {
  let other: SQL
  beforeEach(async () => {
    await t.deps.db.write((q) => execute(q, sql`CREATE TABLE cursor_rows (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text)`))
    other = new SQL(t.config.databaseUrl!, { max: 2 })
  })
  afterEach(() => other.close())

  it('holds back a key taken by a transaction still open, and settles it once that one commits', async () => {
    const held = await other.reserve()
    await held.unsafe('BEGIN')
    await held.unsafe(`INSERT INTO cursor_rows (note) VALUES ('slow filing')`) // takes key 1, not committed
    await other.unsafe(`INSERT INTO cursor_rows (note) VALUES ('quick filing')`) // key 2, committed
    // Key 2 is visible, key 1 is not: a reader that moved its cursor to 2 would never count 1.
    expect(await t.deps.db.read((q) => rowsOf(q, sql`SELECT id FROM cursor_rows`))).toEqual([{ id: 2 }])
    expect(await upTo(200)).toBe(0)

    // Once the slow filing commits (while the reader waits), everything up to 2 is settled and visible.
    const waiting = upTo(10_000)
    await Bun.sleep(100)
    await held.unsafe('COMMIT')
    held.release()
    expect(await waiting).toBe(2)
    expect(await t.deps.db.read((q) => rowsOf(q, sql`SELECT id FROM cursor_rows ORDER BY id`))).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('settles a key whose transaction rolled back: a gap for good', async () => {
    const held = await other.reserve()
    await held.unsafe('BEGIN')
    await held.unsafe(`INSERT INTO cursor_rows (note) VALUES ('refused')`)
    await held.unsafe('ROLLBACK')
    held.release()
    await other.unsafe(`INSERT INTO cursor_rows (note) VALUES ('kept')`)
    expect(await upTo(10_000)).toBe(2)
  })
})
