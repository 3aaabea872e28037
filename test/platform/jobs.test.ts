import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { jobs } from '../../src/jobs/jobs.table'
import { DeferJob, type JobHandler } from '../../src/jobs/jobs.types'
import { MINUTE } from '../../src/lib/clock'
import { silentLogger } from '../../src/lib/logger'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { until } from '../helpers/until'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

function runnerWith(handlers: JobHandler[]) {
  return new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers })
}
const jobRow = async (id = 1) => (await t.deps.db.read((q) => q.select().from(jobs).where(eq(jobs.id, id)).limit(1)))[0]!

/** Waits until a runner has claimed job `id` (a claim is a round trip or two: on PostgreSQL under a loaded CI it can take far more than a fixed sleep). */
const untilClaimed = (id = 1) => until(`job ${id} to be claimed`, async () => (await jobRow(id)).status === 'running', { ms: 15_000, everyMs: 10 })

describe('job runner', () => {
  it('retries a failing job after 1, 5, 25 and 125 minutes, then gives up after 5 attempts', async () => {
    const runsAt: number[] = []
    const runner = runnerWith([{ kind: 'flaky', run: async () => { runsAt.push(t.clock.now().getTime()); throw new Error('receiver down') } }])
    const start = t.clock.now().getTime()
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'flaky', payload: {} })
    expect(await runner.drain()).toBe(1)
    for (const wait of [1, 5, 25, 125]) {
      t.clock.advance(wait * MINUTE - 1000)
      expect(await runner.drain()).toBe(0) // not due yet
      t.clock.advance(1000)
      expect(await runner.drain()).toBe(1)
    }
    expect(runsAt.map((x) => (x - start) / MINUTE)).toEqual([0, 1, 6, 31, 156])
    expect(await jobRow()).toMatchObject({ status: 'failed', attempts: 5, lastError: 'receiver down' })
    t.clock.advance(1000 * MINUTE)
    expect(await runner.drain()).toBe(0)
  })

  it('marks a job done after a later success', async () => {
    let calls = 0
    const runner = runnerWith([{ kind: 'once-flaky', run: async () => { if (++calls === 1) throw new Error('first fails') } }])
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'once-flaky', payload: {} })
    await runner.drain()
    t.clock.advance(MINUTE)
    await runner.drain()
    expect(await jobRow()).toMatchObject({ status: 'done', attempts: 2, lastError: null })
  })

  it('reclaims a job whose runner crashed once its lease expires', async () => {
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: { n: 1 } })
    // A runner claims the job and dies mid-run: simulate by claiming through a handler that never returns.
    const crashed = runnerWith([{ kind: 'work', timeoutMs: 5_000, run: () => new Promise(() => {}) }])
    void crashed.tick()
    await untilClaimed()
    expect(await jobRow()).toMatchObject({ status: 'running', leaseOwner: crashed.owner })
    const seen: unknown[] = []
    const restarted = runnerWith([{ kind: 'work', run: async (p) => { seen.push(p) } }])
    expect(await restarted.drain()).toBe(0) // lease still held
    t.clock.advance(5_000 + 30_000 + 1)
    expect(await restarted.drain()).toBe(1)
    expect(seen).toEqual([{ n: 1 }])
    expect(await jobRow()).toMatchObject({ status: 'done', leaseOwner: null })
  })

  it('on start-up, frees the leases a dead process held so its jobs run at once', async () => {
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: {} })
    const dead = runnerWith([{ kind: 'work', run: () => new Promise(() => {}) }])
    void dead.tick()
    await untilClaimed()
    const seen: number[] = []
    const next = runnerWith([{ kind: 'work', run: async () => { seen.push(1) } }])
    expect(await next.reclaimOrphans()).toBe(1)
    expect(await next.drain()).toBe(1)
    expect(seen).toEqual([1])
  })

  it('times out a hung handler and schedules a retry', async () => {
    const runner = runnerWith([{ kind: 'hang', timeoutMs: 50, run: (_p, ctx) => new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))) }])
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'hang', payload: {} })
    await runner.drain()
    expect(await jobRow()).toMatchObject({ status: 'pending', attempts: 1 })
    expect((await jobRow()).lastError).toMatch(/timed out|aborted/)
  })

  it('makes one job of two enqueues with the same idempotency key', async () => {
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'x', payload: 1, idempotencyKey: 'delivery-1' })
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'x', payload: 2, idempotencyKey: 'delivery-1' })
    expect(await t.deps.db.read((q) => q.select().from(jobs))).toHaveLength(1)
  })

  it('commits jobs with the transaction that causes them, and drops them when it rolls back', async () => {
    await expect(
      t.deps.db.write(async (tx) => {
        await t.deps.jobs.enqueue(tx, { kind: 'x', payload: {} })
        throw new Error('change failed')
      }),
    ).rejects.toThrow('change failed')
    expect(await t.deps.db.read((q) => q.select().from(jobs))).toHaveLength(0)
  })

  it('defers without spending an attempt', async () => {
    let calls = 0
    const runner = runnerWith([{ kind: 'paused', run: async () => { if (++calls === 1) throw new DeferJob(10 * MINUTE) } }])
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'paused', payload: {} })
    await runner.drain()
    expect(await jobRow()).toMatchObject({ status: 'pending', attempts: 0 })
    t.clock.advance(10 * MINUTE)
    await runner.drain()
    expect(await jobRow()).toMatchObject({ status: 'done', attempts: 1 })
  })

  it('runs slow jobs concurrently so one does not hold up the others', async () => {
    // Counts handlers in flight at once rather than timing the tick, which a busy machine stretches.
    let running = 0
    let most = 0
    const runner = runnerWith([{ kind: 'slow', run: async () => { most = Math.max(most, ++running); await new Promise((r) => setTimeout(r, 150)); running-- } }])
    for (let i = 0; i < 8; i++) await t.deps.jobs.enqueue(t.deps.db, { kind: 'slow', payload: i })
    expect(await runner.tick()).toBe(8)
    expect(most).toBeGreaterThan(1)
  })
})
