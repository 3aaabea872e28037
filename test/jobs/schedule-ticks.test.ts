import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { scheduleTicks } from '../../src/jobs/schedule-ticks.table'
import type { Schedule } from '../../src/jobs/jobs.types'
import { silentLogger } from '../../src/lib/logger'
import { createTestApp, type TestApp } from '../helpers/test-app'

// Every node's timer fires at a schedule's tick; the lease in the database lets one of them run it.
// Several runners on one database stand for several nodes (each has its own lease owner).

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const runner = () => new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [] })
const counting = (name: string, o: Partial<Schedule> = {}) => {
  const ran: string[] = []
  return { ran, schedule: { name, pattern: '* * * * *', run: async () => void ran.push(name), ...o } satisfies Schedule }
}
const at = (iso: string) => new Date(iso)

describe('schedules run once per tick across nodes', () => {
  it('of four nodes whose timers fire for the same tick at once, exactly one runs it, and the next tick runs again', async () => {
    const nodes = [runner(), runner(), runner(), runner()]
    const { ran, schedule } = counting('workflow.sla-breaches')
    for (const tick of ['2026-03-01T10:00:00Z', '2026-03-01T10:01:00Z', '2026-03-01T10:02:00Z']) {
      const answers = await Promise.all(nodes.map((n) => n.runSchedule(schedule, at(tick))))
      expect(answers.filter(Boolean)).toHaveLength(1)
    }
    expect(ran).toHaveLength(3)
  })

  it('a node whose timer fires late, after another node took a later tick, does not run the older one', async () => {
    const [a, b] = [runner(), runner()]
    const { ran, schedule } = counting('integrations.digest')
    expect(await a.runSchedule(schedule, at('2026-03-02T09:00:00Z'))).toBe(true)
    expect(await b.runSchedule(schedule, at('2026-03-01T09:00:00Z'))).toBe(false)
    expect(await b.runSchedule(schedule, at('2026-03-02T09:00:00Z'))).toBe(false)
    expect(ran).toEqual(['integrations.digest'])
    const rows = await t.deps.db.read((q) => q.select().from(scheduleTicks))
    expect(rows).toEqual([{ name: 'integrations.digest', tick: at('2026-03-02T09:00:00Z'), owner: a.owner }])
  })

  it('schedules lease their ticks apart: one schedule taking a tick leaves another schedule of the same tick free', async () => {
    const [a, b] = [runner(), runner()]
    const first = counting('retention.run')
    const second = counting('auth.cleanup')
    expect(await a.runSchedule(first.schedule, at('2026-03-01T04:37:00Z'))).toBe(true)
    expect(await b.runSchedule(second.schedule, at('2026-03-01T04:37:00Z'))).toBe(true)
    expect([...first.ran, ...second.ran]).toEqual(['retention.run', 'auth.cleanup'])
  })

  it('a per-node schedule (work on the process itself) runs on every node', async () => {
    const [a, b] = [runner(), runner()]
    const { ran, schedule } = counting('db.checkpoint', { perNode: true })
    expect(await a.runSchedule(schedule, at('2026-03-01T10:00:01Z'))).toBe(true)
    expect(await b.runSchedule(schedule, at('2026-03-01T10:00:01Z'))).toBe(true)
    expect(ran).toHaveLength(2)
  })

  it('a tick skipped to leave the CPU to requests is not taken, so a node that is not busy still runs it', async () => {
    let busy = true
    const busyNode = new JobRunner({ db: t.deps.db, clock: t.clock, logger: silentLogger, handlers: [], busy: () => busy })
    const { ran, schedule } = counting('workflow.alerts', { yieldsToRequests: true })
    expect(await busyNode.runSchedule(schedule, at('2026-03-01T10:05:00Z'))).toBe(false)
    expect(await runner().runSchedule(schedule, at('2026-03-01T10:05:00Z'))).toBe(true)
    busy = false
    expect(ran).toEqual(['workflow.alerts'])
  })

  it('a schedule whose run fails has used its tick (it is not run again by another node), and the failure is not thrown', async () => {
    const [a, b] = [runner(), runner()]
    let calls = 0
    const failing: Schedule = { name: 'steam.sync', pattern: '23 * * * *', run: async () => { calls++; throw new Error('steam is down') } }
    expect(await a.runSchedule(failing, at('2026-03-01T10:23:00Z'))).toBe(true)
    expect(await b.runSchedule(failing, at('2026-03-01T10:23:00Z'))).toBe(false)
    expect(calls).toBe(1)
  })
})
