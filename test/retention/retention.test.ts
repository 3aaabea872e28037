import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/config'
import { collectJobs } from '../../src/jobs/registry'
import { DAY, HOUR } from '../../src/lib/clock'
import { createSession } from '../../src/modules/auth/auth.sessions'
import { runRetention } from '../../src/modules/retention/retention.service'
import { createProject, createReportIn, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { pngDataUrl, WEBM } from '../sdk/sdk-helpers'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
afterEach(() => t?.close())

const noPause = { pause: async () => {} }
const count = async (table: string) => ((await sqlRows(t, `SELECT count(*) AS n FROM ${table}`))[0] as { n: number }).n
const rows = async (sql: string) => (await sqlRows(t, sql)) as Record<string, unknown>[]
const filePath = (key: string) => join(t.dir, 'files', key.slice(0, 2), key)
/** Sessions last 30 days: a fresh token after the clock moved on. */
const freshToken = (owner: { user: { id: string } }) => createSession(t.deps.db, owner.user.id, t.clock.now())

/** A self-hosted owner and project at the app's current time. */
async function setup(env: Record<string, string> = {}) {
  t = createTestApp({ env, start: '2026-01-01T10:00:00Z' })
  const owner = await createUser(t, { plan: 'self_hosted' })
  return { owner, project: await createProject(t, owner) }
}

/** One day's telemetry through the SDK routes: two events of one name (two sessions), one of another, a session that crashes, a perf sample. */
async function playDay(project: TestProject, tag: string) {
  const apiKey = project.apiKey
  const ok = async (path: string, body: unknown, status = 201) => expect((await t.request('POST', path, { apiKey, body })).status).toBe(status)
  await ok('/api/sessions/start', { session_token: `session-${tag}-a`, platform: 'Windows', game_version: '1.0', player_id: `p-${tag}` })
  await ok('/api/sessions/start', { session_token: `session-${tag}-b`, platform: 'Windows', game_version: '1.0', player_id: `p-${tag}` })
  await ok('/api/sessions/end', { session_token: `session-${tag}-a`, crashed: true }, 200)
  await ok('/api/events/track', { event_name: 'level_start', session_token: `session-${tag}-a` })
  await ok('/api/events/track', { event_name: 'level_start', session_token: `session-${tag}-b` })
  await ok('/api/events/track', { event_name: 'boss_killed' })
  await ok('/api/perf/snapshot', { fps: 60 })
}

async function uploadReplay(project: TestProject, reportId: string): Promise<string> {
  const form = new FormData()
  form.set('bug_report_id', reportId)
  form.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
  const res = await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: form })
  expect(res.status).toBe(201)
  return res.body.data.file_url.split('/').at(-1)
}

describe('retention settings', () => {
  it('default to 90 days of raw telemetry and 30 days of replays', () => {
    expect(loadConfig({})).toMatchObject({ retentionDays: 90, replayRetentionDays: 30 })
    expect(loadConfig({ GLITCHBOX_RETENTION_DAYS: '0', GLITCHBOX_REPLAY_RETENTION_DAYS: '7' })).toMatchObject({ retentionDays: 0, replayRetentionDays: 7 })
  })

  it.each([
    ['GLITCHBOX_RETENTION_DAYS', 'abc'],
    ['GLITCHBOX_RETENTION_DAYS', '-1'],
    ['GLITCHBOX_RETENTION_DAYS', '1.5'],
    ['GLITCHBOX_REPLAY_RETENTION_DAYS', 'ninety'],
    ['GLITCHBOX_REPLAY_RETENTION_DAYS', '-30'],
  ])('%s=%s stops start-up naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`invalid ${name}=`))
  })
})

describe('a retention run', () => {
  it('deletes raw telemetry past GLITCHBOX_RETENTION_DAYS, keeps recent rows, reports and their files, and keeps daily rollups', async () => {
    const { owner, project } = await setup()
    await playDay(project, 'old')
    // A report with a screenshot, an attachment and a comment, filed on the old day.
    const submit = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'Crash on load', description: 'boom', screenshot: pngDataUrl() } })
    expect(submit.status).toBe(201)
    const number = submit.body.data.report_number
    const form = new FormData()
    form.append('file', new File(['log line'], 'log.txt', { type: 'text/plain' }))
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/attachments`, { token: owner.token, body: form })).status).toBe(201)
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/comments`, { token: owner.token, body: { body: 'seen it' } })).status).toBe(201)
    const filesBefore = await rows('SELECT key FROM files ORDER BY key')

    t.clock.advance(100 * DAY)
    await playDay(project, 'new')
    const run = await runRetention(t.deps, noPause)

    expect(run.deleted).toEqual({ events: 3, perf_snapshots: 1, play_sessions: 2, session_replays: 0, event_ids: 0 })
    expect(await rows('SELECT token FROM play_sessions ORDER BY token')).toEqual([{ token: 'session-new-a' }, { token: 'session-new-b' }])
    expect(await count('events')).toBe(3)
    expect(await count('perf_snapshots')).toBe(1)
    // Reports, comments, attachments and screenshots are never retention's business.
    const read = await t.request('GET', `/api/projects/${project.slug}/bugs/${number}`, { token: await freshToken(owner) })
    expect(read.status).toBe(200)
    expect([await count('reports'), await count('comments'), await count('attachments')]).toEqual([1, 1, 1])
    expect(await rows('SELECT key FROM files ORDER BY key')).toEqual(filesBefore)
    for (const { key } of filesBefore) expect(existsSync(filePath(key as string))).toBe(true)

    // The old day survives as rollups.
    expect(await rows("SELECT project_id, event_name, count, sessions FROM telemetry_daily_events WHERE day = '2026-01-01' ORDER BY event_name")).toEqual([
      { project_id: project.id, event_name: 'boss_killed', count: 1, sessions: 0 },
      { project_id: project.id, event_name: 'level_start', count: 2, sessions: 2 },
    ])
    expect(await rows("SELECT project_id, game_version, platform, started, ended, crashed, players FROM telemetry_daily_sessions WHERE day = '2026-01-01'")).toEqual([
      { project_id: project.id, game_version: '1.0', platform: 'Windows', started: 2, ended: 1, crashed: 1, players: 1 },
    ])
    // Every complete day up to yesterday is rolled up (empty days have no rows); today is not yet.
    expect(await rows("SELECT name, through_day FROM telemetry_rollup_state ORDER BY name")).toEqual([
      { name: 'events', through_day: '2026-04-10' },
      { name: 'sessions', through_day: '2026-04-10' },
    ])

    // The next day's run rolls up the new day, and the old day's rollup is left as it was.
    t.clock.advance(DAY)
    await runRetention(t.deps, noPause)
    expect(await rows("SELECT day, event_name, count FROM telemetry_daily_events ORDER BY day, event_name")).toEqual([
      { day: '2026-01-01', event_name: 'boss_killed', count: 1 },
      { day: '2026-01-01', event_name: 'level_start', count: 2 },
      { day: '2026-04-11', event_name: 'boss_killed', count: 1 },
      { day: '2026-04-11', event_name: 'level_start', count: 2 },
    ])
    expect(await rows("SELECT day, started FROM telemetry_daily_sessions ORDER BY day")).toEqual([
      { day: '2026-01-01', started: 2 },
      { day: '2026-04-11', started: 2 },
    ])
  })

  it('never deletes raw rows of a day that has no rollup yet', async () => {
    const { project } = await setup({ GLITCHBOX_RETENTION_DAYS: '1' })
    await playDay(project, 'a')
    // The rollup watermark says nothing is rolled up past the day before: nothing of that day may go.
    await sqlRun(t, "INSERT INTO telemetry_rollup_state (name, through_day) VALUES ('events', '2025-12-31'), ('sessions', '2025-12-31')")
    t.clock.advance(2 * DAY)
    const run = await runRetention(t.deps, noPause)
    // The run itself rolls the day up first, so its rows may then go.
    expect(run.rolledUpDays).toBeGreaterThan(0)
    expect(run.deleted.events).toBe(3)
    expect(await rows("SELECT sum(count) AS n FROM telemetry_daily_events WHERE day = '2026-01-01'")).toEqual([{ n: 3 }])
  })

  it('keeps everything with 0 days, and still rolls up', async () => {
    const { project } = await setup({ GLITCHBOX_RETENTION_DAYS: '0', GLITCHBOX_REPLAY_RETENTION_DAYS: '0' })
    await playDay(project, 'old')
    const report = await createReportIn(t, project)
    const key = await uploadReplay(project, report.id)
    t.clock.advance(3650 * DAY)
    const run = await runRetention(t.deps, noPause)
    expect(run.deleted).toEqual({ events: 0, perf_snapshots: 0, play_sessions: 0, session_replays: 0, event_ids: 0 })
    expect([await count('events'), await count('perf_snapshots'), await count('play_sessions'), await count('session_replays')]).toEqual([3, 1, 2, 1])
    expect(existsSync(filePath(key))).toBe(true)
    expect(await count('telemetry_daily_events')).toBe(2)
  })

  it('deletes replays past GLITCHBOX_REPLAY_RETENTION_DAYS with their files, keeps newer ones and the report', async () => {
    const { owner, project } = await setup()
    const report = await createReportIn(t, project)
    const oldKey = await uploadReplay(project, report.id)
    t.clock.advance(20 * DAY)
    const newKey = await uploadReplay(project, report.id)
    expect(existsSync(filePath(oldKey))).toBe(true)
    t.clock.advance(11 * DAY)

    const run = await runRetention(t.deps, noPause)
    expect(run.deleted.session_replays).toBe(1)
    expect(run.filesRemoved).toBe(1)
    expect(existsSync(filePath(oldKey))).toBe(false)
    expect(existsSync(filePath(newKey))).toBe(true)
    expect(await rows('SELECT file_key FROM session_replays')).toEqual([{ file_key: newKey }])
    expect(await rows(`SELECT key FROM files WHERE key = '${oldKey}'`)).toEqual([])
    expect((await t.request('GET', `/api/files/${oldKey}`)).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${report.reportNumber}`, { token: await freshToken(owner) })).status).toBe(200)
  })

  it('deletes in batches sized by time and lets ingestion write between them', async () => {
    const { project } = await setup({ GLITCHBOX_RETENTION_DAYS: '1' })
    // 20,000 old events straight into the table (the route would take too long here).
    await sqlRun(t, 'INSERT INTO event_names (project_id, name) VALUES (?, ?)', project.id, 'tick')
    const nameId = ((await sqlRows(t, 'SELECT id FROM event_names'))[0] as { id: number }).id
    const at = t.clock.now().getTime()
    await sqlRun(t, 'INSERT INTO events (name_id, created_at) SELECT ?, CAST(? AS BIGINT) + i FROM (WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 19999) SELECT i FROM s) n', nameId, at)
    t.clock.advance(3 * DAY)
    let ingested = 0
    const run = await runRetention(t.deps, {
      targetMs: 2,
      pause: async () => {
        const res = await t.request('POST', '/api/events/track', { apiKey: project.apiKey, body: { event_name: 'during_retention' } })
        if (res.status === 201) ingested++
      },
    })
    expect(run.deleted.events).toBe(20_000)
    expect(run.batches).toBeGreaterThan(3)
    expect(ingested).toBeGreaterThan(2)
    expect(await count('events')).toBe(ingested)
  })

  it('runs once a day from its schedule through the job queue', async () => {
    const { project } = await setup({ GLITCHBOX_RETENTION_DAYS: '10' })
    await playDay(project, 'old')
    t.clock.advance(11 * DAY + 18 * HOUR)
    const schedule = collectJobs(t.deps).schedules.find((s) => s.name === 'retention.daily')!
    await schedule.run()
    await schedule.run()
    expect(await rows("SELECT count(*) AS n FROM jobs WHERE kind = 'retention.run'")).toEqual([{ n: 1 }])
    await t.runner.drain()
    expect(await count('events')).toBe(0)
    expect(await count('telemetry_daily_events')).toBe(2)
  })
})

describe.skipIf(!onSqlite)('space (SQLite: auto-vacuum, page counts)', () => {
  it('new databases use incremental auto-vacuum, and a run gives the freed pages back', async () => {
    const { project } = await setup({ GLITCHBOX_RETENTION_DAYS: '1' })
    expect((await sqlRows(t, 'PRAGMA auto_vacuum'))[0]).toEqual({ auto_vacuum: 2 })
    t.sqlite.run('INSERT INTO event_names (project_id, name) VALUES (?, ?)', [project.id, 'tick'])
    const at = t.clock.now().getTime()
    t.sqlite.transaction(() => {
      const insert = t.sqlite.query("INSERT INTO events (name_id, created_at, data) VALUES (1, ?, '{\"padding\":\"" + 'x'.repeat(200) + "\"}')")
      for (let i = 0; i < 5_000; i++) insert.run(at + i)
    })()
    const pages = async () => ((await sqlRows(t, 'PRAGMA page_count'))[0] as { page_count: number }).page_count
    const before = await pages()
    t.clock.advance(3 * DAY)
    const run = await runRetention(t.deps, noPause)
    expect(run.vacuumedPages).toBeGreaterThan(100)
    expect(await pages()).toBeLessThan(before - 100)
    expect((await sqlRows(t, 'PRAGMA freelist_count'))[0]).toEqual({ freelist_count: 0 })
  })
})
