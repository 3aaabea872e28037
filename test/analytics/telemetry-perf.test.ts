import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { rollUpTelemetry } from '../../src/modules/retention/retention.rollups'
import { sessionReplays } from '../../src/modules/sdk/sdk.table'
import { reportRatings } from '../../src/modules/workflow/workflow.table'
import { newId } from '../../src/lib/ids'
import { createReportIn, createUser } from '../helpers/fixtures'
import { addEvents, addPerf, addSessions, at, rollUp, setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

describe('telemetry events', () => {
  it('counts events per name and day, the same after retention rolls up and deletes the raw rows', async () => {
    const { t, project, get } = await setup('pro')
    close = t.close
    await addEvents(t, project, 'level_start', [{ daysAgo: 2, session: 's1' }, { daysAgo: 2, session: 's1' }, { daysAgo: 2, session: 's2' }, { daysAgo: 0, session: 's3', data: { level: 3 } }])
    await addEvents(t, project, 'shop_open', [{ daysAgo: 1, session: null }])
    const expected = {
      days: 3,
      from: '2026-01-03',
      to: '2026-01-05',
      events: [
        { name: 'level_start', total: 4, daily: [{ day: '2026-01-03', count: 3 }, { day: '2026-01-04', count: 0 }, { day: '2026-01-05', count: 1 }] },
        { name: 'shop_open', total: 1, daily: [{ day: '2026-01-03', count: 0 }, { day: '2026-01-04', count: 1 }, { day: '2026-01-05', count: 0 }] },
      ],
    }
    expect((await get('/events?days=3')).body.data).toEqual(expected)
    // session-days: level_start has 2 distinct sessions on 01-03 and 1 on 01-05 → 3
    const summary = { days: 3, from: '2026-01-03', to: '2026-01-05', total_events: 5, event_names: 2, top_events: [{ name: 'level_start', count: 4, session_days: 3 }, { name: 'shop_open', count: 1, session_days: 0 }] }
    expect((await get('/events/summary?days=3')).body.data).toEqual(summary)
    // The analytics job counts yesterday and today from its cursor: the same numbers.
    expect((await rollUp(t)).events).toBe(2)
    expect((await get('/events?days=3')).body.data).toEqual(expected)
    expect((await get('/events/summary?days=3')).body.data).toEqual(summary)

    await rollUpTelemetry(t.deps.db, { now: t.clock.now().getTime(), retainedFrom: 0, pause: async () => {} })
    await t.deps.db.write((q) => execute(q, sql`DELETE FROM events WHERE created_at < ${Date.parse('2026-01-05T00:00:00Z')}`))
    expect((await get('/events?days=3')).body.data).toEqual(expected)
    expect((await get('/events/summary?days=3')).body.data).toEqual(summary)
    // Counted incrementally: a new event of a known session adds a count, not a session-day.
    await rollUp(t)
    await addEvents(t, project, 'level_start', [{ daysAgo: 0, session: 's3' }, { daysAgo: 0, session: 's4' }])
    expect((await rollUp(t)).events).toBe(2)
    const after = (await get('/events/summary?days=3')).body.data
    expect(after.top_events[0]).toEqual({ name: 'level_start', count: 6, session_days: 4 })

    const details = await get('/events/level_start/details?days=30')
    expect(details.body.data.events.map((e: any) => e.session_token)).toEqual(['s4', 's3', 's3'])
    expect(details.body.data.events[2]).toMatchObject({ data: { level: 3 }, created_at: at(0).toISOString() })
    expect((await get('/events/nothing/details')).status).toBe(404)
    await addEvents(t, project, '100% done', [{ daysAgo: 0, data: { ok: true } }])
    expect((await get('/events/100%25%20done/details')).body.data).toMatchObject({ name: '100% done', events: [{ data: { ok: true } }] })
    expect((await get('/events?days=91')).status).toBe(400)
  })

  it('gates /events and /log-stack on tier 2 (free 403, self_hosted 200)', async () => {
    for (const [plan, status] of [
      ['free', 403],
      ['self_hosted', 200],
    ] as const) {
      const { t, get } = await setup(plan)
      const res = [(await get('/events')).status, (await get('/log-stack')).status, (await get('/events/summary')).status]
      t.close()
      expect(res).toEqual([status, status, 200])
    }
  })

  it('groups recent-log lines of auto-filed reports by normalized text', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const filed = async (logs: string[]) => await createReportIn(t, project, { title: '[Error] Boom', description: `x\n--- Stack Trace ---\nat A ()\n--- Recent Logs ---\n${logs.join('\n')}`, source: 'system' })
    await filed(['[12:00:01] Loaded level 3 in 120 ms', '[12:00:02] Player spawned', '[12:00:03] Player spawned'])
    await filed(['[13:10:00] Loaded level 7 in 98 ms'])
    await createReportIn(t, project, { title: 'Manual', description: 'Loaded level 1 in 5 ms' })
    await rollUp(t)
    const res = await get('/log-stack?days=7')
    expect(res.body.data).toMatchObject({ days: 7, page: 1, total: 2, lines: [{ line: 'Loaded level # in # ms', reports: 2 }, { line: 'Player spawned', reports: 1 }] })
    for (const q of ['days=3', 'days=abc', 'page=0']) {
      const bad = await get(`/log-stack?${q}`)
      expect([bad.status, bad.body.error]).toEqual([400, expect.stringContaining(q.split('=')[0]!)])
    }
  })
})

describe('performance', () => {
  it('gives p50/p95 by version and platform (nearest rank), a report’s samples, and scene-load samples', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const r = await createReportIn(t, project, { title: 'Laggy', description: 'x', gameVersion: '1.0', platform: 'ps5' })
    // memory 1011, 1021, …, 1101 MB rounded to 3 significant digits: 1010, 1020, …, 1100.
    // fps 10..100 in tens: n = 10; p50 rank ceil(5) = 5th → 50; p95 rank ceil(9.5) = 10th → 100
    for (let i = 1; i <= 10; i++) await addPerf(t, project, { reportId: r.id, fps: i * 10, frameTimeMs: 1000 / (i * 10), memoryUsedMb: 1001 + i * 10 })
    await addPerf(t, project, { loadTimeSec: 2.5 })
    await addPerf(t, project, { loadTimeSec: 4.004 })
    await rollUp(t)
    const sum = (await get('/perf-summary')).body.data
    expect(sum.by_version_platform).toHaveLength(1)
    expect(sum.by_version_platform[0]).toMatchObject({ game_version: '1.0', platform: 'ps5', fps: { samples: 10, p50: 50, p95: 100 }, memory_used_mb: { p50: 1050, p95: 1100 } })
    // frame times rounded to 0.1 ms: 100, 50, 33.3, 25, 20, 16.7, 14.3, 12.5, 11.1, 10 → ascending 10, 11.1, 12.5, 14.3, 16.7, …: 5th = 16.7, 10th = 100
    expect(sum.by_version_platform[0].frame_time_ms).toEqual({ samples: 10, p50: 16.7, p95: 100 })
    expect(sum.scene_loads).toMatchObject({ load_time_sec: { samples: 2, p50: 2.5, p95: 4 }, fps: { samples: 0, p50: null } })
    expect(sum.scene_loads.samples).toHaveLength(2)
    const perf = (await get(`/bugs/${r.reportNumber}/perf`)).body.data
    expect(perf).toMatchObject({ count: 10, summary: { fps: { p50: 50, p95: 100 } } })
    expect(perf.snapshots).toHaveLength(10)
  })

  it('lists replays with file URLs on tier 3 only', async () => {
    for (const [plan, status] of [
      ['pro', 403],
      ['studio', 200],
    ] as const) {
      const { t, project, get } = await setup(plan)
      const r = await createReportIn(t, project)
      await t.deps.db.write((q) => q.insert(sessionReplays).values({ id: newId(), projectId: project.id, reportId: r.id, fileKey: 'replays/abc.webm', fileSize: 1234, mimeType: 'video/webm', durationSec: 12.5, metadata: { scene: 'cave' }, createdAt: at(0) }))
      const res = await get(`/bugs/${r.reportNumber}/replays`)
      t.close()
      expect(res.status).toBe(status)
      if (status === 200) expect(res.body.data).toEqual([{ id: expect.any(String), file_url: 'http://glitchbox.test/api/files/replays/abc.webm', mime_type: 'video/webm', file_size: 1234, duration_sec: 12.5, metadata: { scene: 'cave' }, created_at: at(0).toISOString() }])
    }
  })
})

describe('satisfaction', () => {
  it('averages ratings with their distribution and daily trend', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const raters = [await createUser(t), await createUser(t), await createUser(t)]
    const a = await createReportIn(t, project)
    const b = await createReportIn(t, project)
    const rate = async (reportId: string, rater: number, rating: number, daysAgo: number) =>
      await t.deps.db.write((q) => q.insert(reportRatings).values({ id: newId(), reportId, raterId: raters[rater]!.user.id, rating, comment: '', createdAt: at(daysAgo), updatedAt: at(daysAgo) }))
    await rate(a.id, 0, 5, 0)
    await rate(a.id, 1, 4, 0)
    await rate(b.id, 2, 1, 1)
    const d = (await get('/satisfaction?days=2')).body.data
    // (5 + 4 + 1) / 3 = 3.33
    expect(d).toEqual({ count: 3, average: 3.33, distribution: { 1: 1, 2: 0, 3: 0, 4: 1, 5: 1 }, days: 2, trend: [{ day: '2026-01-04', count: 1, average: 1 }, { day: '2026-01-05', count: 2, average: 4.5 }] })
    await addSessions(t, project, { n: 1 })
  })
})
