// Statements prepared once and run many times (src/db/prepared-fast.ts, SQLite): their checks are
// worked out at the first run, and `execute` answers a thenable that runs the statement when awaited.
// They must bind, map and fail exactly as Drizzle's own prepared statements do.
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeDb, createDb, type Db, openSqlite, preparedRows } from '../../src/db/client'
import { json, timestamp } from '../../src/db/columns'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

const things = sqliteTable('things', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
  seenAt: timestamp('seen_at'),
  tags: json<string[]>('tags'),
})

let dir: string
let db: Db
beforeEach(() => {
  dir = tempDir('prepared')
  const writer = openSqlite(join(dir, 'db.sqlite'))
  writer.exec('CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, seen_at INTEGER, tags TEXT)')
  db = createDb(writer)
})
afterEach(() => {
  closeDb(db)
  removeTempDir(dir)
})

const p = sql.placeholder

describe('prepared statements', () => {
  it('bind placeholders through their columns and map rows back (dates, JSON), as often as they run', async () => {
    const insert = db.insert(things).values({ name: p('name'), seenAt: p('at'), tags: p('tags') }).prepare()
    const byName = db.select().from(things).where(eq(things.name, p('name'))).prepare()
    const at = new Date('2026-12-01T10:00:00Z')
    for (const name of ['a', 'b', 'c']) await db.write(() => insert.execute({ name, at, tags: [name, 'x'] }))
    for (const name of ['a', 'b', 'c']) {
      const [row] = await db.read(() => byName.execute({ name }))
      expect(row).toEqual({ id: expect.any(Number), name, seenAt: at, tags: [name, 'x'] })
    }
  })

  it('reject the await with the database error, and the write leaves nothing', async () => {
    const insert = db.insert(things).values({ name: p('name') }).prepare()
    await db.write(() => insert.execute({ name: 'taken' }))
    await expect(
      db.write(async () => {
        await insert.execute({ name: 'fresh' })
        await insert.execute({ name: 'taken' })
      }),
    ).rejects.toThrow(/UNIQUE constraint failed/)
    const names = await db.read((q) => q.select({ name: things.name }).from(things))
    expect(names).toEqual([{ name: 'taken' }])
  })

  it('say which placeholder was not given a value', async () => {
    const insert = db.insert(things).values({ name: p('name') }).prepare()
    await expect(db.write(() => insert.execute({}))).rejects.toThrow('No value for placeholder "name" was provided')
  })

  it('run only when awaited, once per await, and settle .catch and .finally like a promise', async () => {
    const insert = db.insert(things).values({ name: p('name') }).prepare()
    const count = async () => (await db.read((q) => q.select({ n: sql<number>`count(*)` }).from(things)))[0]!.n
    await db.write(async () => {
      const pending = insert.execute({ name: 'once' })
      expect(await count()).toBe(0)
      await pending
    })
    expect(await count()).toBe(1)
    let finished = false
    const failure = await db.write(() =>
      insert
        .execute({ name: 'once' })
        .finally(() => {
          finished = true
        })
        .catch((err: Error) => err.message),
    )
    expect(failure).toMatch(/UNIQUE constraint failed/)
    expect(finished).toBe(true)
  })

  it('run raw SQL prepared once per connection with each call\'s values (preparedRows)', async () => {
    let built = 0
    const named = preparedRows<{ name: string }>(() => {
      built++
      return sql`SELECT name FROM things WHERE id > ${p('after')} ORDER BY id`
    })
    await db.write((q) => q.insert(things).values([{ id: 1, name: 'a' }, { id: 2, name: 'b' }, { id: 3, name: 'c' }]))
    expect(await db.write((q) => named(q, { after: 2 }))).toEqual([{ name: 'c' }])
    expect(await db.write((q) => named(q, { after: 0 }))).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
    expect(await db.write((q) => named(q, { after: 1 }))).toEqual([{ name: 'b' }, { name: 'c' }])
    expect(built).toBe(1)
  })
})
