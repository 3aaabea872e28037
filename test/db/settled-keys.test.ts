// settledKeys (src/db/settled-keys.ts): a cursor reader on PostgreSQL must not move past a key that a
// transaction still in progress took, though a later key has committed, or that row is never counted
// (the analytics rollups, the alerts' hourly counts). It waits only for writers of the walked table.
// On SQLite rows commit in key order: no bound.
import { SQL } from 'bun'
import { and, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute, rowsOf } from '../../src/db/client'
import { settledKeys } from '../../src/db/settled-keys'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** What a cursor read of `cursor_rows` after 0 returns: the ids it may count and move past (`inWrite`: inside a write transaction, as a rollup step reads). */
const cursorRead = (waitMs?: number, { inWrite = false } = {}) => {
  const read = async (q: Parameters<Parameters<typeof t.deps.db.read>[0]>[0]) => {
    const settled = await settledKeys(q, { table: 'cursor_rows', column: 'id', waitMs })
    return (await rowsOf<{ id: number }>(q, sql`SELECT id FROM cursor_rows WHERE ${and(sql`id > 0`, settled)} ORDER BY id`)).map((r) => r.id)
  }
  return inWrite ? t.deps.db.write(read) : t.deps.db.read(read)
}

describe('settledKeys on SQLite', () => {
  it('bounds nothing: one writer commits rows in key order', async (ctx) => {
    if (!onSqlite) ctx.skip()
    expect(await t.deps.db.read((q) => settledKeys(q, { table: 'reports', column: 'seq' }))).toBeUndefined()
  })
})

describe.skipIf(onSqlite)('settledKeys on PostgreSQL', () => {
  let other: SQL
  beforeEach(async () => {
    await t.deps.db.write(async (q) => {
      await execute(q, sql`CREATE TABLE cursor_rows (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text)`)
      await execute(q, sql`CREATE TABLE other_rows (id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY)`)
    })
    other = new SQL(t.config.databaseUrl!, { max: 3 })
  })
  afterEach(() => other.close())

  /** Key 1 taken by a filing still open, key 2 by one committed since: the open one, to commit. */
  const slowAndQuick = async () => {
    const held = await other.reserve()
    await held.unsafe('BEGIN')
    await held.unsafe(`INSERT INTO cursor_rows (note) VALUES ('slow filing')`)
    await other.unsafe(`INSERT INTO cursor_rows (note) VALUES ('quick filing')`)
    return held
  }

  for (const inWrite of [false, true]) {
    it(`holds back a key taken by a transaction still open, and reads it once that one commits${inWrite ? ', waiting inside a transaction of its own (as a rollup step does)' : ''}`, async () => {
      const held = await slowAndQuick()
      // Key 2 is visible, key 1 is not: a reader that moved its cursor to 2 would never count 1.
      expect(await t.deps.db.read((q) => rowsOf(q, sql`SELECT id FROM cursor_rows`))).toEqual([{ id: 2 }])
      expect(await cursorRead(200, { inWrite })).toEqual([])

      // Once the slow filing commits (while the reader waits), the reader gets both, in order.
      const waiting = cursorRead(10_000, { inWrite })
      await Bun.sleep(100)
      await held.unsafe('COMMIT')
      held.release()
      expect(await waiting).toEqual([1, 2])
    })
  }

  it('reads past a key whose transaction rolled back: a gap for good', async () => {
    const held = await other.reserve()
    await held.unsafe('BEGIN')
    await held.unsafe(`INSERT INTO cursor_rows (note) VALUES ('refused')`)
    await held.unsafe('ROLLBACK')
    held.release()
    await other.unsafe(`INSERT INTO cursor_rows (note) VALUES ('kept')`)
    expect(await cursorRead(10_000)).toEqual([2])
  })

  it('waits for no transaction that does not write the walked table: another table\'s writer, a schema change', async () => {
    await other.unsafe(`INSERT INTO cursor_rows (note) VALUES ('filed')`)
    const writer = await other.reserve()
    await writer.unsafe('BEGIN')
    await writer.unsafe('INSERT INTO other_rows DEFAULT VALUES')
    const ddl = await other.reserve()
    await ddl.unsafe('BEGIN')
    await ddl.unsafe('CREATE TABLE started_by_a_migration (id integer)')
    try {
      // Both stay open for the whole read: waiting on either would give nothing within the 5 s.
      expect(await cursorRead(5_000)).toEqual([1])
    } finally {
      await writer.unsafe('ROLLBACK')
      await ddl.unsafe('ROLLBACK')
      writer.release()
      ddl.release()
    }
  })
})
