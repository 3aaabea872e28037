// Analytics numbers are fresh within seconds of the submissions that make them (issue 24): each read
// first counts what the rollups have not counted yet (at most 2,000 rows), and says how fresh it is.
import { afterEach, describe, expect, it } from 'vitest'
import { CATCH_UP_ROWS } from '../../src/modules/analytics/analytics.freshness'
import { setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

type Ctx = Awaited<ReturnType<typeof setup>>

const crash = (player: string, version = '1.3.0') => ({
  title: '[Error] NullReferenceException: Object reference not set to an instance of an object',
  description: 'NullReferenceException\n\n--- Stack Trace ---\n  at InventoryPanel.Refresh () [0x0001a] in Assets/Scripts/InventoryPanel.cs:42\n',
  category: 'crash',
  game_version: version,
  platform: 'Windows',
  steam_id: player,
})

async function submit({ t, project }: Ctx, body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body })
  expect(res.status).toBeLessThan(300)
}

async function session({ t, project }: Ctx, token: string, version: string, crashed: boolean) {
  expect((await t.request('POST', '/api/sessions/start', { body: { api_key: project.apiKey, session_token: token, game_version: version, platform: 'Windows', steam_id: `player-${token}` } })).status).toBeLessThan(300)
  expect((await t.request('POST', '/api/sessions/end', { body: { api_key: project.apiKey, session_token: token, crashed } })).status).toBeLessThan(300)
}

describe('analytics reads catch the rollups up', () => {
  it('count a crash submitted a moment ago, without waiting for the per-minute job, fresh as of the read', async () => {
    const ctx = await setup()
    const { t, get } = ctx
    close = t.close
    await submit(ctx, crash('76561198000000001'))
    await session(ctx, 'fresh-session-1', '1.3.0', true)
    t.clock.advance(1_000)
    const now = t.clock.now().toISOString()

    const groups = await get('/crash-groups')
    expect(groups.status).toBe(200)
    expect(groups.body.data).toMatchObject([{ grouped_by: 'NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)', events: 1, players: 1, sample_report_number: 1 }])
    expect(groups.headers.get('x-glitchbox-fresh-as-of')).toBe(now)

    const health = await get('/release-health')
    expect(health.body.data.fresh_as_of).toBe(now)
    expect(health.headers.get('x-glitchbox-fresh-as-of')).toBe(now)
    // Players of the version: the crash's player and the session's.
    expect(health.body.data.versions).toMatchObject([{ version: '1.3.0', events: 1, crash_events: 1, reports: 1, players: 2, sessions: 1, crashed_sessions: 1 }])

    // The same crash from a second player a second later: the next read counts it.
    await submit(ctx, crash('76561198000000002'))
    expect((await get('/crash-groups')).body.data).toMatchObject([{ events: 2, players: 2 }])
    for (const path of ['/crash-analytics', '/bad-deploy', '/usage', '/release-health/version?version=1.3.0']) {
      const res = await get(path)
      expect([path, res.status, res.body.data.fresh_as_of]).toEqual([path, 200, now])
    }
    expect((await get('/crash-analytics')).body.data.totals).toMatchObject({ events: 2, crash_events: 2, reports: 1 })
    expect((await get('/usage')).body.data.reports.today).toBe(1)
    const dash = await t.request('GET', '/api/analytics/dashboard', { token: ctx.owner.token })
    expect(dash.body.data.fresh_as_of).toBe(now)
  })

  // 2,600 submissions through HTTP: 107 s on PostgreSQL on a busy 2-core VM (120 s was too close).
  it(`count at most ${CATCH_UP_ROWS} submissions per read and say how old the numbers are; the next read counts the rest`, { timeout: 300_000 }, async () => {
    const ctx = await setup()
    const { t, get } = ctx
    close = t.close
    const burst = async (n: number, from: number) => {
      for (let i = 0; i < n; i += 50) await Promise.all(Array.from({ length: Math.min(50, n - i) }, (_, j) => submit(ctx, { title: `The door ${from + i + j} does not open`, description: 'Stuck', game_version: '1.2.0', steam_id: `p${(from + i + j) % 40}` })))
    }
    const first = t.clock.now()
    await burst(1_000, 0)
    t.clock.advance(10_000)
    const second = t.clock.now()
    await burst(1_600, 1_000)
    t.clock.advance(10_000)

    // 2,000 counted: the first 1,000 and 1,000 of the second burst; the oldest left is from the second burst.
    const behind = await get('/crash-analytics')
    expect(behind.body.data.totals.events).toBe(2_000)
    expect(behind.body.data.fresh_as_of).toBe(second.toISOString())
    expect(Date.parse(behind.body.data.fresh_as_of)).toBeGreaterThan(first.getTime())

    const caughtUp = await get('/crash-analytics')
    expect(caughtUp.body.data.totals).toMatchObject({ events: 2_600, reports: 2_600 })
    expect(caughtUp.body.data.fresh_as_of).toBe(t.clock.now().toISOString())
  })
})
