// The database seam (src/db/client.ts): an async write is all-or-nothing, reads never see another
// request's open transaction, and a write inside a write joins it.
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeDb, createDb, type Db, execute, openSqlite, rowsOf } from '../../src/db/client'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

let dir: string
let db: Db
beforeEach(() => {
  dir = tempDir('seam')
  const file = join(dir, 'db.sqlite')
  const writer = openSqlite(file)
  writer.exec('CREATE TABLE t (v TEXT)')
  db = createDb(writer, { reader: openSqlite(file, { readonly: true }) })
})
afterEach(() => {
  closeDb(db)
  removeTempDir(dir)
})

const insert = (q: Db, v: string) => q.run(sql`INSERT INTO t (v) VALUES (${v})`)
const values = () => db.read((q) => q.all<{ v: string }>(sql`SELECT v FROM t ORDER BY v`).map((r) => r.v))

describe('db.write', () => {
  it('leaves nothing behind when a write that awaited throws, rows before and after the await alike', async () => {
    await expect(
      db.write(async (q) => {
        insert(q, 'before')
        await Bun.sleep(5)
        insert(q, 'after')
        throw new Error('nope')
      }),
    ).rejects.toThrow('nope')
    expect(await values()).toEqual([])
  })

  it('commits every row of a write that awaited, and answers after the commit', async () => {
    await db.write(async (q) => {
      insert(q, 'a')
      await Bun.sleep(5)
      insert(q, 'b')
    })
    expect(await values()).toEqual(['a', 'b'])
  })

  it('holds other writes back while one awaits, so they never land in its transaction', async () => {
    const slow = db.write(async (q) => {
      insert(q, 'slow')
      await Bun.sleep(20)
      throw new Error('rolled back')
    })
    await Bun.sleep(5)
    const other = db.write((q) => insert(q, 'other'))
    await expect(slow).rejects.toThrow('rolled back')
    await other
    expect(await values()).toEqual(['other'])
  })

  it('joins a write inside a write: the inner rows commit with the outer ones, and an inner failure fails them all', async () => {
    await db.write(async (q) => {
      insert(q, 'outer')
      await db.write((inner) => insert(inner, 'inner'))
    })
    await expect(
      db.write(async (q) => {
        insert(q, 'outer 2')
        await db.write(async (inner) => {
          insert(inner, 'doomed')
          throw new Error('inner')
        })
      }),
    ).rejects.toThrow('inner')
    expect(await values()).toEqual(['inner', 'outer'])
  })
})

describe('a closed database', () => {
  it('never runs a write queued before it closed, and raises no error nobody waits for', async () => {
    const file = join(dir, 'other.sqlite')
    const other = createDb(openSqlite(file))
    const queued = other.write((q) => q.run(sql`CREATE TABLE x (v TEXT)`)).then(() => 'written', () => 'failed')
    closeDb(other)
    expect(await Promise.race([queued, Bun.sleep(50).then(() => 'still queued')])).toBe('still queued')
    const reopened = openSqlite(file)
    expect(reopened.query("SELECT name FROM sqlite_master WHERE name = 'x'").all()).toEqual([])
    reopened.close()
  })
})

describe('db.read', () => {
  it('does not see the rows of a write still open, and sees them once it commits', async () => {
    let seenDuring: string[] = []
    const writing = db.write(async (q) => {
      insert(q, 'pending')
      await Bun.sleep(10)
    })
    await Bun.sleep(2)
    seenDuring = await values()
    await writing
    expect(seenDuring).toEqual([])
    expect(await values()).toEqual(['pending'])
  })

  it('inside a write sees that write\'s own rows', async () => {
    const seen = await db.write(async (q) => {
      insert(q, 'mine')
      return values()
    })
    expect(seen).toEqual(['mine'])
  })

  it('cannot write through the read-only connection', async () => {
    const err = await db.read((q) => insert(q, 'x')).catch((e: Error) => e)
    expect(String((err as Error & { cause?: unknown }).cause)).toMatch(/readonly/i)
    expect(await values()).toEqual([])
  })
})

describe('raw SQL through the seam', () => {
  it('returns rows with rowsOf and runs statements with execute, bound parameters kept apart from the SQL', async () => {
    const hostile = "x'); DROP TABLE t; --"
    await db.write((q) => execute(q, sql`INSERT INTO t (v) VALUES (${hostile})`))
    expect(await db.read((q) => rowsOf<{ v: string }>(q, sql`SELECT v FROM t WHERE v = ${hostile}`))).toEqual([{ v: hostile }])
  })
})
