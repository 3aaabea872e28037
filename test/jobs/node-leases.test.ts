import { hostname } from 'node:os'
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { jobs } from '../../src/jobs/jobs.table'
import { MINUTE } from '../../src/lib/clock'
import { silentLogger } from '../../src/lib/logger'
import { createTestApp, type TestApp } from '../helpers/test-app'

// A node starting beside running ones (issue 31) frees only the leases whose runner is gone, on both
// engines. Job rows are written through the seam here, as another node's runner would have left them.

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const runner = () => new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [{ kind: 'work', run: async () => {} }] })

/** A `work` job leased to `owner` until `minutes` from now (negative: expired). */
async function leased(owner: string, minutes: number): Promise<number> {
  const now = t.clock.now()
  const [row] = await t.deps.db.write((q) =>
    q
      .insert(jobs)
      .values({ kind: 'work', payload: {}, status: 'running', runAt: now, maxAttempts: 5, leaseOwner: owner, leaseExpiresAt: new Date(now.getTime() + minutes * MINUTE), createdAt: now, updatedAt: now })
      .returning({ id: jobs.id }),
  )
  return row!.id
}
const job = async (id: number) => (await t.deps.db.read((q) => q.select().from(jobs).where(eq(jobs.id, id))))[0]!

describe('a node starting beside live nodes', () => {
  it('leaves the live leases of other nodes alone, frees the expired ones, and runs only those', async () => {
    const live = await leased(`runner:${hostname()}-node-2:4242:abc123`, 10)
    const liveHere = await leased(`runner:${hostname()}:${process.ppid}:def456`, 10)
    const expired = await leased(`runner:${hostname()}-node-3:7:ghi789`, -1)
    const starting = runner()
    expect(await starting.reclaimOrphans()).toBe(1)
    expect(await starting.drain()).toBe(1)
    expect(await job(live)).toMatchObject({ status: 'running', leaseOwner: `runner:${hostname()}-node-2:4242:abc123` })
    expect(await job(liveHere)).toMatchObject({ status: 'running', leaseOwner: `runner:${hostname()}:${process.ppid}:def456` })
    expect(await job(expired)).toMatchObject({ status: 'done', leaseOwner: null })
  })
})
