import { hostname } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeDb, createDb, openSqlite } from '../../src/db/client'
import { createPgDb } from '../../src/db/pg/client'
import { DB_FILE } from '../../src/deps'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { jobs } from '../../src/jobs/jobs.table'
import type { JobHandler } from '../../src/jobs/jobs.types'
import { MINUTE } from '../../src/lib/clock'
import { silentLogger } from '../../src/lib/logger'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const runnerOn = (db: TestApp['deps']['db'], handlers: JobHandler[]) => new JobRunner({ db, clock: t.clock, logger: silentLogger, handlers })
const jobRow = async (id = 1) => (await t.deps.db.read((q) => q.select().from(jobs).where(eq(jobs.id, id))))[0]!

/** Marks job `id` as leased to `owner` until `minutes` from now, as a runner of another server would. */
async function leasedTo(owner: string, minutes: number, id = 1) {
  const at = new Date(t.clock.now().getTime() + minutes * MINUTE)
  await t.deps.db.write((q) => q.update(jobs).set({ status: 'running', leaseOwner: owner, leaseExpiresAt: at }).where(eq(jobs.id, id)))
}

/** The pid of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = Bun.spawn(['true'])
  await child.exited
  return child.pid
}

describe('job leases shared by several servers', () => {
  it('two runners on one database, each on its own connection, run every job exactly once', async () => {
    const second = t.config.databaseUrl ? createPgDb(t.config.databaseUrl, { max: 4 }) : createDb(openSqlite(join(t.dir, DB_FILE)))
    try {
      const seen: number[] = []
      const work: JobHandler = { kind: 'work', run: async (p: { i: number }) => { await Bun.sleep(1); seen.push(p.i) } }
      for (let i = 0; i < 300; i++) await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: { i } })
      const a = runnerOn(t.deps.db, [work])
      const b = runnerOn(second, [work])
      const [ranA, ranB] = await Promise.all([a.drain(), b.drain()])
      expect(ranA + ranB).toBe(300)
      expect(seen.toSorted((x, y) => x - y)).toEqual(Array.from({ length: 300 }, (_, i) => i))
      expect(await t.deps.jobs.counts(t.deps.db)).toEqual({ done: 300 })
    } finally {
      await closeDb(second)
    }
  })

  it("a server starting leaves the running jobs of another live server alone, on this host or another", async () => {
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: {} })
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: {} })
    const sameHost = `runner:${hostname()}:${process.ppid}:abc123`
    const otherHost = `runner:${hostname()}-node-2:${process.pid}:def456`
    await leasedTo(sameHost, 10, 1)
    await leasedTo(otherHost, 10, 2)
    const seen: unknown[] = []
    const starting = runnerOn(t.deps.db, [{ kind: 'work', run: async (p) => void seen.push(p) }])
    expect(await starting.reclaimOrphans()).toBe(0)
    expect(await starting.drain()).toBe(0)
    expect(await jobRow(1)).toMatchObject({ status: 'running', leaseOwner: sameHost })
    expect(await jobRow(2)).toMatchObject({ status: 'running', leaseOwner: otherHost })
    expect(seen).toEqual([])
  })

  it('a server starting frees the leases that expired and those of a process of this host that died', async () => {
    for (let i = 0; i < 3; i++) await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: {} })
    const live = `runner:${hostname()}-node-2:1:def456`
    await leasedTo(live, 10, 1)
    await leasedTo(`runner:${hostname()}:${await deadPid()}:abc123`, 10, 2)
    await leasedTo(live, -1, 3)
    const starting = runnerOn(t.deps.db, [{ kind: 'work', run: async () => {} }])
    expect(await starting.reclaimOrphans()).toBe(2)
    expect(await starting.drain()).toBe(2)
    expect(await jobRow(1)).toMatchObject({ status: 'running', leaseOwner: live })
    expect((await jobRow(2)).status).toBe('done')
    expect((await jobRow(3)).status).toBe('done')
  })

  it('a lease that another server holds ends when it expires, and the job then runs here', async () => {
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'work', payload: {} })
    await leasedTo(`runner:${hostname()}-node-2:1:def456`, 10)
    const runner = runnerOn(t.deps.db, [{ kind: 'work', run: async () => {} }])
    expect(await runner.drain()).toBe(0)
    t.clock.advance(10 * MINUTE)
    expect(await runner.drain()).toBe(1)
    expect(await jobRow()).toMatchObject({ status: 'done', leaseOwner: null })
  })
})
