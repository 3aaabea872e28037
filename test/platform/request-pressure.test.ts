import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectJobs } from '../../src/jobs/registry'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { BUSY_LAG_MS, measureRequestPressure, requestLagMs } from '../../src/jobs/request-pressure'
import { loopGuard } from '../../src/lib/background'
import { systemClock } from '../../src/lib/clock'
import { silentLogger } from '../../src/lib/logger'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('request pressure', () => {
  it('reports the request thread as behind while its event loop is blocked, and recovers', async () => {
    const pressure = measureRequestPressure(loopGuard({ logger: silentLogger, clock: systemClock }))
    try {
      // Waits (up to 5 s) for the probe to read calm: on a machine busy with other work a tick may come late anyway.
      const calm = async () => {
        for (let waited = 0; waited < 5000 && requestLagMs(pressure.buffer) >= BUSY_LAG_MS; waited += 20) await Bun.sleep(20)
        return requestLagMs(pressure.buffer)
      }
      expect(await calm()).toBeLessThan(BUSY_LAG_MS)
      for (let i = 0; i < 5; i++) {
        const until = performance.now() + 30
        while (performance.now() < until) {} // a request thread with work queued
        await Bun.sleep(0)
      }
      expect(requestLagMs(pressure.buffer)).toBeGreaterThan(BUSY_LAG_MS)
      expect(await calm()).toBeLessThan(BUSY_LAG_MS)
    } finally {
      pressure.stop()
    }
  })

  it('a busy request thread slows the job runner to a trickle; jobs are delayed, not dropped', async () => {
    let busy = true
    let done = 0
    const runner = new JobRunner({
      db: t.deps.db,
      clock: t.clock,
      logger: silentLogger,
      handlers: [{ kind: 'deliver', run: async () => { done++ } }],
      busy: () => busy,
    })
    for (let i = 0; i < 200; i++) await t.deps.jobs.enqueue(t.deps.db, { kind: 'deliver', payload: { i } })
    runner.start()
    try {
      await Bun.sleep(1300) // the first poll runs within a second, then at most one claim per 20 ms
      expect(done).toBeGreaterThan(0)
      expect(done).toBeLessThanOrEqual(66)
      busy = false
      // Then at full speed (~1 s here when quiet): waited for with a deadline, so a loaded machine delays it without failing it.
      for (const end = Date.now() + 15_000; done < 200 && Date.now() < end; ) await Bun.sleep(50)
      expect(done).toBe(200)
    } finally {
      await runner.stop()
    }
  })

  it('housekeeping schedules marked yieldsToRequests skip their ticks while requests are behind; others still run', async () => {
    let busy = true
    const ran: string[] = []
    const runner = new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [], busy: () => busy })
    const merge = { name: 'merge', pattern: '* * * * * *', run: () => void ran.push('merge'), yieldsToRequests: true }
    const checkpoint = { name: 'checkpoint', pattern: '* * * * * *', run: () => void ran.push('checkpoint') }
    expect(await runner.runSchedule(merge)).toBe(false)
    expect(await runner.runSchedule(checkpoint)).toBe(true)
    expect(ran).toEqual(['checkpoint'])
    busy = false
    expect(await runner.runSchedule(merge)).toBe(true)
    expect(ran).toEqual(['checkpoint', 'merge'])
  })

  it.skipIf(!onSqlite)('the search-index merge is such a schedule (SQLite: FTS5 segment merge; PostgreSQL has none)', () => {
    const merge = collectJobs(t.deps).schedules.find((s) => s.name === 'reports.fts-merge')!
    expect(merge.yieldsToRequests).toBe(true)
  })
})
