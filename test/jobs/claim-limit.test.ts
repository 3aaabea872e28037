// A claim takes at most the runner's free slots, on both engines: a runner of concurrency 8 never
// runs a ninth job at once, however many are due (issue 31: on PostgreSQL the picks are locked with
// FOR UPDATE SKIP LOCKED inside the claiming UPDATE).
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSqlite } from '../../src/db/client'
import { DB_FILE } from '../../src/deps'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { jobs } from '../../src/jobs/jobs.table'
import { silentLogger } from '../../src/lib/logger'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('claiming due jobs', () => {
  it('runs no more jobs at once than the runner’s concurrency, however many are due', async () => {
    const now = t.clock.now()
    await t.deps.db.write((q) => q.insert(jobs).values(Array.from({ length: 20 }, () => ({ kind: 'work', payload: {}, status: 'pending' as const, runAt: now, maxAttempts: 5, createdAt: now, updatedAt: now }))))
    let running = 0
    let most = 0
    const runner = new JobRunner({
      db: t.deps.db,
      clock: t.clock,
      logger: silentLogger,
      concurrency: 8,
      handlers: [
        {
          kind: 'work',
          run: async () => {
            most = Math.max(most, ++running)
            await Bun.sleep(20)
            running--
          },
        },
      ],
    })
    expect(await runner.tick()).toBe(8)
    expect(most).toBe(8)
    expect(await runner.drain()).toBe(12)
    expect(most).toBe(8)
  })

  // The runner polls every second, and every 20 ms while requests queue: a poll must not take the
  // write lock that filings wait for (on SQLite the job thread retried it every millisecond).
  it.skipIf(!onSqlite)('finds nothing due without the write lock: a poll waits on no other writer (SQLite: one write lock)', async () => {
    const later = new Date(t.clock.now().getTime() + 60_000)
    await t.deps.db.write((q) => q.insert(jobs).values({ kind: 'work', payload: {}, status: 'pending', runAt: later, maxAttempts: 5, createdAt: later, updatedAt: later }))
    const runner = new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [{ kind: 'work', run: async () => {} }] })
    // Another connection (the request thread, a CLI command) holds the write lock for longer than the claim may take.
    const other = openSqlite(join(t.dir, DB_FILE))
    other.exec('BEGIN IMMEDIATE')
    try {
      const claimed = await Promise.race([runner.tick(), Bun.sleep(3_000).then(() => 'waited for the lock')])
      expect(claimed).toBe(0)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    // Once due, the job is claimed (the write happens then) and runs.
    t.clock.advance(60_000)
    expect(await runner.tick()).toBe(1)
  })
})
