// The seam's group commit (src/db/group-commit.ts) waits for a write lock held by another connection (the job thread, a CLI command)
// without blocking the event loop, and still fails a write the lock never comes for.
import { join } from 'node:path'
import type { Database } from 'bun:sqlite'
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDb, openSqlite } from '../../src/db/client'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'

let dir: string
let mine: Database
let other: Database
beforeEach(() => {
  dir = tempDir('batcher-lock')
  mine = openSqlite(join(dir, 'db.sqlite'))
  other = openSqlite(join(dir, 'db.sqlite'))
  mine.exec('CREATE TABLE bt (v TEXT)')
})
afterEach(() => {
  if (other.inTransaction) other.exec('ROLLBACK')
  mine.close()
  other.close()
  removeTempDir(dir)
})

const values = () => mine.query<{ v: string }, []>('SELECT v FROM bt ORDER BY v').all().map((r) => r.v)

describe('The group commit (db.write) while another connection holds the write lock', () => {
  it('keeps the event loop turning, takes the writes that join meanwhile, and commits them together once the lock is free', async () => {
    const db = createDb(mine)
    const insert = (v: string) => db.write((tx) => tx.run(sql`INSERT INTO bt (v) VALUES (${v})`))
    other.exec('BEGIN IMMEDIATE')
    const first = insert('a')
    // Timers keep firing while the write waits: with SQLite's busy handler the thread would sleep in it.
    const ticks: number[] = []
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now()
      await Bun.sleep(10)
      ticks.push(performance.now() - t0)
    }
    expect(Math.max(...ticks)).toBeLessThan(1000)
    const second = insert('b')
    await Bun.sleep(20)
    expect(values()).toEqual([])
    other.exec('INSERT INTO bt (v) VALUES (\'other\')')
    other.exec('COMMIT')
    await Promise.all([first, second])
    expect(values()).toEqual(['a', 'b', 'other'])
  })

  it('fails the writes with SQLite\'s busy error once the lock has not come within the wait, and works again after', async () => {
    const db = createDb(mine, { lockWaitMs: 1000 })
    other.exec('BEGIN IMMEDIATE')
    const started = performance.now()
    const late = (v: string) =>
      db.write((tx) => tx.run(sql`INSERT INTO bt (v) VALUES (${v})`)).then(
        () => 'written',
        (e: { code?: string }) => e.code,
      )
    // Three writes of one batch fail together after the wait: none of them then waits again in the
    // busy handler on its own (three more waits of 1 s, the thread held through each).
    expect(await Promise.all([late('a'), late('b'), late('c')])).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_BUSY'])
    expect(performance.now() - started).toBeGreaterThanOrEqual(1000)
    expect(performance.now() - started).toBeLessThan(2900) // one wait, not three (3 s or more)
    other.exec('COMMIT')
    await db.write((tx) => tx.run(sql`INSERT INTO bt (v) VALUES ('now')`))
    expect(values()).toEqual(['now'])
  })
})
