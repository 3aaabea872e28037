// A claim takes at most the runner's free slots, on both engines: a runner of concurrency 8 never
// runs a ninth job at once, however many are due (issue 31: on PostgreSQL the picks are locked with
// FOR UPDATE SKIP LOCKED inside the claiming UPDATE).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { jobs } from '../../src/jobs/jobs.table'
import { silentLogger } from '../../src/lib/logger'
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
})
