import { sql } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { migrate } from '../../src/db/migrate'
import { ANALYTICS_ROLLUP_JOB } from '../../src/modules/analytics/analytics.jobs'
import { percentsApart, pText } from '../../src/modules/analytics/verdict-words'
import { rollUpTelemetry } from '../../src/modules/retention/retention.rollups'
import { createReportIn } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows } from '../helpers/sql-rows'
import { addSessions, rollUp, setup } from './analytics-helpers'
import { databaseParts } from '../../src/modules/registry'

let close: (() => void) | undefined
afterEach(() => close?.())

describe('crash-free rate and crash analytics', () => {
  it('counts sessions that did not crash over all sessions, ended or still running (as Sentry does), per version, platform and day', async () => {
    const { t, project, get } = await setup()
    close = t.close
    // 1.0.0 windows today: 13 sessions, 10 ended, 2 crashed, 3 still open (healthy: they did not crash)
    await addSessions(t, project, { n: 13, open: 3, crashed: 2, version: '1.0.0', platform: 'windows' })
    // 1.1.0 linux yesterday: 4 ended, 1 crashed
    await addSessions(t, project, { n: 4, crashed: 1, version: '1.1.0', platform: 'linux', daysAgo: 1 })
    await createReportIn(t, project, { title: 'Crash on load', description: 'x', category: 'crash', gameVersion: '1.0.0', platform: 'windows' })
    await createReportIn(t, project, { title: 'Wrong colour', description: 'x', category: 'visual', gameVersion: '1.1.0', platform: 'linux' })
    await rollUp(t)
    const res = await get('/crash-analytics?days=7')
    expect(res.status).toBe(200)
    const d = res.body.data
    // total: 17 sessions, crashed 3 → 14/17
    expect(d.totals).toMatchObject({ sessions: 17, ended: 14, crashed: 3, crash_free_rate: Math.round((14 / 17) * 1e4) / 1e4, reports: 2, crash_reports: 1 })
    const v100 = d.by_version.find((v: any) => v.game_version === '1.0.0')
    expect(v100).toMatchObject({ sessions: 13, ended: 10, crashed: 2, crash_free_rate: Math.round((11 / 13) * 1e4) / 1e4, crash_reports: 1 })
    expect(d.by_platform.find((p: any) => p.platform === 'linux')).toMatchObject({ ended: 4, crashed: 1, crash_free_rate: 0.75, reports: 1, crash_reports: 0 })
    expect(d.daily).toHaveLength(7)
    expect(d.daily.at(-1)).toMatchObject({ day: '2026-01-05', ended: 10, crash_free_rate: Math.round((11 / 13) * 1e4) / 1e4 })
    expect(d.daily.at(-2)).toMatchObject({ day: '2026-01-04', ended: 4, crash_free_rate: 0.75 })
    expect(d.daily[0]).toMatchObject({ day: '2025-12-30', ended: 0, crash_free_rate: null })
    // Retention rolls up complete days and deletes their raw sessions: the numbers stay.
    await rollUpTelemetry(t.deps.db, { now: t.clock.now().getTime(), retainedFrom: 0, pause: async () => {} })
    await t.deps.db.write((q) => execute(q, sql`DELETE FROM play_sessions WHERE started_at < ${Date.parse('2026-01-05T00:00:00Z')}`))
    expect((await get('/crash-analytics?days=7')).body.data).toEqual(d)
  })

  it.each(['0', '91', 'abc', '2.5'])('answers 400 naming days for days=%s', async (days) => {
    const { t, get } = await setup()
    close = t.close
    const res = await get(`/crash-analytics?days=${days}`)
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('days')
  })
})

describe('bad deploy', () => {
  it('compares the two newest semantic versions with 10+ sessions by a two-proportion z-test', async () => {
    const { t, project, get } = await setup()
    close = t.close
    await addSessions(t, project, { n: 100, crashed: 10, version: '1.9.0', daysAgo: 3 })
    await addSessions(t, project, { n: 100, crashed: 25, version: '1.10.0', daysAgo: 1 })
    // newer by semver but only 9 sessions: not eligible
    await addSessions(t, project, { n: 9, version: '1.11.0' })
    for (let i = 0; i < 5; i++) await createReportIn(t, project, { title: `Bug ${i}`, description: 'x', gameVersion: '1.10.0' })
    await createReportIn(t, project, { title: 'Old bug', description: 'x', gameVersion: '1.9.0' })
    await rollUp(t)
    const d = (await get('/bad-deploy')).body.data
    // By hand: old 90/100, new 75/100; pooled p = 165/200 = 0.825;
    // se = sqrt(0.825 * 0.175 * (1/100 + 1/100)) = sqrt(0.0028875) = 0.0537355;
    // z = (0.75 - 0.90) / 0.0537355 = -2.79145; Φ(2.79145) = 0.997376 (normal table) → p = 2 * (1 - 0.997376) = 0.005248.
    expect(d.current).toMatchObject({ version: '1.10.0', sessions: 100, crashed: 25, crash_free_rate: 0.75, reports: 5, reports_per_100_sessions: 5 })
    expect(d.previous).toMatchObject({ version: '1.9.0', sessions: 100, crash_free_rate: 0.9, reports_per_100_sessions: 1 })
    expect(d.crash_free_rate_change).toBe(-0.15)
    expect(d.reports_per_100_change).toBe(4)
    expect(d.z).toBeCloseTo(-2.7915, 3)
    expect(d.p_value).toBeCloseTo(0.005248, 4)
    expect(d.verdict).toBe('worse')
    expect(d.summary).toBe('1.10.0 crashes more than 1.9.0: 75.0% vs 90.0% crash-free sessions, a real difference, not chance (p = 0.0052)')
    expect(d.threshold).toMatchObject({ alpha: 0.05, min_sessions: 10 })
  })

  it('says no_difference when p >= 0.05 and not_enough_data with one eligible version', async () => {
    const { t, project, get } = await setup()
    close = t.close
    await addSessions(t, project, { n: 20, crashed: 2, version: 'alpha', daysAgo: 2 })
    await rollUp(t)
    expect((await get('/bad-deploy')).body.data).toMatchObject({ verdict: 'not_enough_data', previous: null, p_value: null, summary: 'Not enough data to compare: only alpha has 10 or more sessions; another version needs as many.' })
    // Non-semantic names: first-seen order. beta 18/20 vs alpha 18/20: z = 0, p = 1.
    await addSessions(t, project, { n: 20, crashed: 2, version: 'beta', daysAgo: 1 })
    await rollUp(t)
    const d = (await get('/bad-deploy')).body.data
    expect(d).toMatchObject({ verdict: 'no_difference', current: { version: 'beta' }, previous: { version: 'alpha' }, z: 0, p_value: 1 })
    expect(d.summary).toBe('beta and alpha crash about as often: 90.0% vs 90.0% crash-free sessions, no real difference, it could be chance (p = 1)')
  })
})

describe('the verdict in words', () => {
  it('says which version crashes more, by how much and how sure, before any statistic', async () => {
    const { t, project, get } = await setup()
    close = t.close
    expect((await get('/bad-deploy')).body.data.summary).toBe('Not enough data to compare: no version has 10 or more sessions yet.')
    // The launch day's shape: 1.2.0 98.2% (55/56 is 98.21%), 1.3.0-beta 88.4% (84/95 is 88.42%).
    await addSessions(t, project, { n: 56, crashed: 1, version: '1.2.0', daysAgo: 1 })
    await addSessions(t, project, { n: 95, crashed: 11, version: '1.3.0-beta' })
    const d = (await get('/bad-deploy')).body.data
    expect(d.summary).toBe(`1.3.0-beta crashes more than 1.2.0: 88.4% vs 98.2% crash-free sessions, a real difference, not chance (p = ${Number(d.p_value.toPrecision(2))})`)
    expect(d.p_value).toBeLessThan(0.05)
    // A released build better than its beta, by 1,000s of sessions: p < 0.001, and rates close enough to need a second decimal.
    await addSessions(t, project, { n: 4000, crashed: 40, version: '1.3.0' })
    await addSessions(t, project, { n: 4000 - 95, crashed: 420 - 11, version: '1.3.0-beta' })
    expect((await get('/bad-deploy')).body.data.summary).toBe('1.3.0 crashes less than 1.3.0-beta: 99.0% vs 89.5% crash-free sessions, a real difference, not chance (p < 0.001)')
  })

  it('never rounds a crash-free rate up to 100% and tells close rates apart', () => {
    expect(percentsApart(0.99951, 0.998)).toEqual(['99.95%', '99.80%'])
    expect(percentsApart(0.9823, 0.9821)).toEqual(['98.23%', '98.21%'])
    expect(percentsApart(1, 0.9)).toEqual(['100.0%', '90.0%'])
    expect(percentsApart(0.999999, 0.98)).toEqual(['99.999%', '98.000%'])
    expect([pText(0.0004, 0.05), pText(0.0499, 0.05), pText(0.0047, 0.05), pText(0.62, 0.05)]).toEqual(['p < 0.001', 'p < 0.05', 'p = 0.0047', 'p = 0.62'])
  })
})

describe('crash groups (tier 2)', () => {
  it('groups crash and error occurrences by fingerprint: error type and top frame without line numbers and addresses', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const desc = (line: number, addr: string) => `Boom\n--- Stack Trace ---\nat Game.Player.Update () [0x${addr}] in Player.cs:${line}\nat Game.Loop ()\n--- Recent Logs ---\nloaded`
    await createReportIn(t, project, { title: '[Error] NullReferenceException: a', description: desc(10, '00a1'), gameVersion: '1.0', playerId: 'p1', source: 'system' })
    await createReportIn(t, project, { title: '[Error] NullReferenceException: b', description: desc(42, 'ff00'), gameVersion: '1.1', playerId: 'p2', source: 'system' })
    await createReportIn(t, project, { title: '[Error] NullReferenceException: c', description: desc(42, 'ff00'), gameVersion: '1.1', playerId: 'p1', source: 'system' })
    await createReportIn(t, project, { title: 'Game freezes', description: 'no trace', category: 'crash', gameVersion: '1.1' })
    await createReportIn(t, project, { title: 'Typo in menu', description: 'no trace', category: 'ui' })
    await rollUp(t)
    const res = await get('/crash-groups')
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(2)
    expect(res.body.data[0]).toMatchObject({
      error_type: 'NullReferenceException',
      grouped_by: 'NullReferenceException at Game.Player.Update (Player.cs)',
      top_frame: 'NullReferenceException at Game.Player.Update (Player.cs)',
      count: 3,
      events: 3,
      affected_players: 2,
      players: 2,
      sample_title: '[Error] NullReferenceException: c',
      versions: [
        { game_version: '1.1', count: 2 },
        { game_version: '1.0', count: 1 },
      ],
    })
    expect(res.body.data[1]).toMatchObject({ error_type: '', grouped_by: 'Game freezes', count: 1, affected_players: 0 })
    // The group's fingerprint is the reports' own, as the report list groups them.
    expect(res.body.data[0].fingerprint).toBe((await sqlRows(t, "SELECT fingerprint FROM reports WHERE title LIKE '%: c'"))[0]!.fingerprint)
  })

  it('count events and distinct players per version, and the version details show them', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const trace = 'Boom\n--- Stack Trace ---\nat Shop.Buy () in Shop.cs:7\n'
    const crash = async (version: string, player?: string) => await createReportIn(t, project, { title: '[Error] NullReferenceException: shop', description: trace, gameVersion: version, playerId: player, source: 'system' })
    // 1.3.0-beta: 4 events from 3 players (p1 twice), one without a player; 1.2.0: 2 events from p1.
    for (const [version, player] of [['1.3.0-beta', 'p1'], ['1.3.0-beta', 'p1'], ['1.3.0-beta', 'p2'], ['1.3.0-beta', 'p3'], ['1.3.0-beta', undefined], ['1.2.0', 'p1'], ['1.2.0', 'p1']] as const) await crash(version, player)
    const all = (await get('/crash-groups')).body.data
    expect(all).toMatchObject([{ events: 7, players: 3, versions: [{ game_version: '1.3.0-beta', count: 5, events: 5, players: 3 }, { game_version: '1.2.0', count: 2, events: 2, players: 1 }] }])
    expect((await get('/crash-groups?version=1.2.0')).body.data).toMatchObject([{ events: 7, players: 3, events_in_version: 2, players_in_version: 1, count_in_version: 2 }])
    const beta = (await get('/release-health/version?version=1.3.0-beta')).body.data
    // (createReportIn files a report each time: 5 reports in 1.3.0-beta, grouped by their one fingerprint.)
    expect(beta).toMatchObject({ version: '1.3.0-beta', events: 5, crash_events: 5, reports: 5, players: 3 })
    expect(beta.top_crash_groups).toMatchObject([{ fingerprint: all[0].fingerprint, events_in_version: 5, players_in_version: 3 }])
  })

  it.skipIf(!onSqlite)('gives a database counted before players per version its counts once, on upgrade (SQLite: migration backfill)', async () => {
    const { t, project, get } = await setup()
    close = t.close
    const trace = 'Boom\n--- Stack Trace ---\nat Shop.Buy () in Shop.cs:7\n'
    for (const [version, player] of [['2.0', 'a'], ['2.0', 'b'], ['2.0', 'a'], ['2.1', 'c']]) await createReportIn(t, project, { title: '[Error] KeyNotFoundException: loot', description: trace, gameVersion: version, playerId: player })
    await createReportIn(t, project, { title: 'Nice game', description: 'not a crash', gameVersion: '2.0', playerId: 'd' })
    await rollUp(t)
    // As an older server left it: no table of players per version, every count 0.
    t.sqlite.exec('DROP TABLE analytics_crash_group_version_players')
    t.sqlite.exec('UPDATE analytics_crash_group_versions SET players = 0')
    migrate(t.sqlite, databaseParts)
    expect((await sqlRows(t, 'SELECT game_version, players FROM analytics_crash_group_versions ORDER BY game_version'))).toEqual([
      { game_version: '2.0', players: 2 },
      { game_version: '2.1', players: 1 },
    ])
    // The rollup goes on from there: a new player in 2.1 makes 2, a known one changes nothing.
    for (const player of ['a', 'c']) await createReportIn(t, project, { title: '[Error] KeyNotFoundException: loot', description: trace, gameVersion: '2.1', playerId: player })
    expect((await get('/crash-groups')).body.data[0].versions).toEqual([
      { game_version: '2.0', count: 3, events: 3, players: 2 },
      { game_version: '2.1', count: 3, events: 3, players: 2 },
    ])
  })

  it('is kept by the queued rollup job', async () => {
    const { t, project, get } = await setup()
    close = t.close
    await createReportIn(t, project, { title: '[Error] TimeoutException: net', description: 'at Net.Send ()', gameVersion: '3.0' })
    // Reads catch the rollup up too (freshness.test.ts); here the job alone counts it.
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM analytics_crash_groups'))[0]!.n).toBe(0)
    await t.deps.jobs.enqueue(t.deps.db, { kind: ANALYTICS_ROLLUP_JOB, payload: {} })
    await t.runner.drain()
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM analytics_crash_groups'))[0]!.n).toBe(1)
    expect((await get('/crash-groups')).body.data).toMatchObject([{ error_type: 'TimeoutException', grouped_by: '[Error] TimeoutException: net', count: 1 }])
  })

  it('is 403 on the free plan and 200 on pro', async () => {
    for (const [plan, status] of [
      ['free', 403],
      ['pro', 200],
    ] as const) {
      const { t, get } = await setup(plan)
      const res = await get('/crash-groups')
      t.close()
      expect(res.status).toBe(status)
    }
  })
})
