// The guard every background loop runs its turns through (src/lib/background.ts): a failing turn is
// logged at most once a minute per loop, never thrown out of a timer (which ends the process).
import { describe, expect, it } from 'vitest'
import { JobRunner } from '../../src/jobs/jobs.runner'
import { loopGuard } from '../../src/lib/background'
import { FakeClock } from '../../src/lib/clock'
import { createLogger } from '../../src/lib/logger'
import { createTestApp } from '../helpers/test-app'

function guarded() {
  const clock = new FakeClock()
  const logs: Record<string, any>[] = []
  const guard = loopGuard({ clock, logger: createLogger('debug', {}, (line) => logs.push(JSON.parse(line))) })
  return { clock, logs, guard }
}

describe('the loop guard', () => {
  it('swallows a failing turn and logs it at most once a minute per loop, counting the failures held back', () => {
    const { clock, logs, guard } = guarded()
    const turn = guard('db.checkpoint', () => {
      throw new Error('file is not a database')
    })
    for (let i = 0; i < 100; i++) {
      expect(() => turn()).not.toThrow()
      clock.advance(500) // a loop failing twice a second for 50 s
    }
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatchObject({ level: 'error', msg: 'a background loop failed; it keeps running', loop: 'db.checkpoint', error: 'file is not a database', failures: 1 })
    expect(logs[0]!.stack).toContain('file is not a database')

    clock.advance(10_000) // a minute after the first line
    turn()
    expect(logs).toHaveLength(2)
    expect(logs[1]).toMatchObject({ loop: 'db.checkpoint', failures: 100 })
    turn()
    expect(logs).toHaveLength(2)
  })

  it('keeps one throttle per loop: another loop failing meanwhile is logged at once', () => {
    const { logs, guard } = guarded()
    const fail = (name: string) =>
      guard(name, () => {
        throw new Error(`${name} broke`)
      })
    fail('jobs.claim')()
    fail('jobs.claim')()
    fail('schedule reports.fts-merge')()
    expect(logs.map((l) => [l.loop, l.failures])).toEqual([
      ['jobs.claim', 1],
      ['schedule reports.fts-merge', 1],
    ])
  })

  it('turns an async rejection into a log line; the promise resolves after the turn settles', async () => {
    const { logs, guard } = guarded()
    let settled = false
    const turn = guard('integrations.digest', async () => {
      await Bun.sleep(5)
      settled = true
      throw new Error('database disk image is malformed')
    })
    await expect(turn()).resolves.toBeUndefined()
    expect(settled).toBe(true)
    expect(logs).toEqual([expect.objectContaining({ loop: 'integrations.digest', error: 'database disk image is malformed', failures: 1 })])
  })

  it('passes arguments through and stays silent while turns succeed', async () => {
    const { logs, guard } = guarded()
    const seen: number[] = []
    guard('sync', (n: number) => void seen.push(n))(7)
    await guard('async', async (n: number) => void seen.push(n))(8)
    expect(seen).toEqual([7, 8])
    expect(logs).toEqual([])
  })
})

describe("the job runner's loops", () => {
  it('log a schedule that fails on every tick once a minute, not once a second', async () => {
    const t = createTestApp()
    try {
      const runner = new JobRunner({ db: t.deps.db, clock: t.clock, logger: t.deps.logger, handlers: [] })
      const checkpoint = {
        name: 'db.checkpoint',
        pattern: '* * * * * *',
        run: async () => {
          throw new Error('database disk image is malformed')
        },
      }
      for (let i = 0; i < 90; i++) {
        expect(await runner.runSchedule(checkpoint)).toBe(true)
        t.clock.advance(1000)
      }
      const lines = t.logs.filter((l) => l.level === 'error')
      expect(lines.map((l) => [l.loop, l.failures])).toEqual([
        ['schedule db.checkpoint', 1],
        ['schedule db.checkpoint', 60],
      ])
    } finally {
      t.close()
    }
  })
})
