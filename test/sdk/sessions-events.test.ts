import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sdkProject, setProject } from './sdk-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const start = (key: string | undefined, o: Record<string, unknown> = {}) => t.request('POST', '/api/sessions/start', { body: { api_key: key, session_token: 'token-0001', ...o } })
const end = (key: string | undefined, o: Record<string, unknown> = {}) => t.request('POST', '/api/sessions/end', { body: { api_key: key, session_token: 'token-0001', ...o } })

describe('POST /api/sessions/start', () => {
  it('starts a session: 201 {session_token, started_at}, records the player and the project first session', async () => {
    const { key, project } = await sdkProject(t)
    const res = await start(key, { platform: 'Windows', game_version: '1.0', device_info: 'RTX', os_info: 'Win 11', steam_id: 76561198, player_name: 'Ann' })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ session_token: 'token-0001', started_at: t.clock.now().toISOString() })
    expect(await sqlRows(t, 'SELECT project_id, player_id, player_name, platform, game_version, device_info, os_info, ended_at FROM play_sessions')).toEqual([
      { project_id: project.id, player_id: '76561198', player_name: 'Ann', platform: 'Windows', game_version: '1.0', device_info: 'RTX', os_info: 'Win 11', ended_at: null },
    ])
    expect((await sqlRows(t, 'SELECT first_session_at FROM projects WHERE id = ?', project.id))[0]!.first_session_at).toBe(t.clock.now().getTime())
    expect(await sqlRows(t, 'SELECT player_id, name, session_count FROM players')).toEqual([{ player_id: '76561198', name: 'Ann', session_count: 1 }])
  })

  it('counts a returning player and keeps the first session time of the project', async () => {
    const { key, project } = await sdkProject(t)
    const first = t.clock.now().getTime()
    await start(key, { player_id: 'p1', player_name: 'Ann' })
    t.clock.advance(3_600_000)
    await start(key, { session_token: 'token-0002', player_id: 'p1' })
    expect(await sqlRows(t, 'SELECT name, session_count, first_seen, last_seen FROM players')).toEqual([{ name: 'Ann', session_count: 2, first_seen: first, last_seen: first + 3_600_000 }])
    expect((await sqlRows(t, 'SELECT first_session_at FROM projects WHERE id = ?', project.id))[0]!.first_session_at).toBe(first)
  })

  it('answers 409 for a token already used in the project, but accepts it in another project', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    expect((await start(key)).status).toBe(201)
    const dup = await start(key)
    expect(dup.status).toBe(409)
    expect(dup.body.ok).toBe(false)
    expect((await start(other.key)).status).toBe(201)
  })

  it.each([
    ['token under 8 characters', { session_token: 'short' }],
    ['token over 128 characters', { session_token: 'x'.repeat(129) }],
    ['missing token', { session_token: undefined }],
  ])('answers 400 for a %s', async (_n, o) => {
    const { key } = await sdkProject(t)
    const res = await start(key, o)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/session_token/)
  })

  it('accepts the X-API-Key header too and answers 401 without a valid key', async () => {
    const { key, project } = await sdkProject(t)
    expect((await t.request('POST', '/api/sessions/start', { apiKey: key, body: { session_token: 'header-token' } })).status).toBe(201)
    expect((await start(undefined)).status).toBe(401)
    expect((await start('sk_live_unknownunknownunknownunknown')).body).toEqual({ ok: false, error: 'invalid API key' })
    await setProject(t, project.id, { isPublic: false })
    expect((await start(key, { session_token: 'token-0003' })).status).toBe(401)
  })
})

describe('POST /api/sessions/end', () => {
  it('ends a session with its duration and crash flag; later calls change nothing and answer the same', async () => {
    const { key } = await sdkProject(t)
    await start(key)
    t.clock.advance(90_500)
    const first = await end(key, { crashed: true })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ session_token: 'token-0001', duration_sec: 91, crashed: true })
    t.clock.advance(10_000)
    const again = await end(key, { crashed: false })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await sqlRows(t, 'SELECT crashed, duration_sec FROM play_sessions')).toEqual([{ crashed: 1, duration_sec: 91 }])
  })

  it('defaults crashed to false', async () => {
    const { key } = await sdkProject(t)
    await start(key)
    expect((await end(key)).body.data.crashed).toBe(false)
  })

  it('answers 404 for an unknown token or a token of another project, 401 without a key', async () => {
    const { key } = await sdkProject(t)
    const other = await sdkProject(t)
    await start(other.key)
    expect((await end(key)).status).toBe(404)
    expect((await end(undefined)).status).toBe(401)
  })
})

describe('POST /api/events/track and /track/batch', () => {
  it('answers 403 on the free plan', async () => {
    const { key } = await sdkProject(t, 'free')
    const res = await t.request('POST', '/api/events/track', { apiKey: key, body: { event_name: 'level_start' } })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/this account does not have telemetry events/)
    expect((await t.request('POST', '/api/events/track/batch', { apiKey: key, body: { events: [{ event_name: 'a' }] } })).status).toBe(403)
  })

  it('tracks one event on pro: 201 {tracked: 1}, stored compactly with a name dictionary', async () => {
    const { key, project } = await sdkProject(t, 'pro')
    const res = await t.request('POST', '/api/events/track', { apiKey: key, body: { event_name: 'level_start', event_data: { level: 3 }, session_token: 'token-0001', platform: 'Windows', game_version: '1.2' } })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ tracked: 1 })
    expect(await sqlRows(t, 'SELECT n.project_id, n.name, e.created_at, e.session_token, e.platform, e.game_version, e.data FROM events e JOIN event_names n ON n.id = e.name_id')).toEqual([
      { project_id: project.id, name: 'level_start', created_at: t.clock.now().getTime(), session_token: 'token-0001', platform: 'Windows', game_version: '1.2', data: '{"level":3}' },
    ])
  })

  it('tracks a batch in one go, reusing dictionary entries', async () => {
    const { key } = await sdkProject(t, 'studio')
    const events = Array.from({ length: 50 }, (_, i) => ({ event_name: `e${i % 3}`, event_data: i % 2 ? { i } : undefined }))
    const res = await t.request('POST', '/api/events/track/batch', { apiKey: key, body: { events } })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ tracked: 50 })
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM events'))[0]!.n).toBe(50)
    expect((await sqlRows(t, 'SELECT name FROM event_names ORDER BY name')).map((r) => r.name)).toEqual(['e0', 'e1', 'e2'])
    await t.request('POST', '/api/events/track', { apiKey: key, body: { event_name: 'e1' } })
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM event_names'))[0]!.n).toBe(3)
    expect((await sqlRows(t, 'SELECT data FROM events WHERE id = (SELECT max(id) FROM events)'))[0]!.data).toBeNull()
  })

  it.each([
    ['missing event_name', '/api/events/track', {}, /event_name/],
    ['event_name over 100', '/api/events/track', { event_name: 'x'.repeat(101) }, /event_name/],
    ['event_data not an object', '/api/events/track', { event_name: 'a', event_data: [1, 2] }, /event_data/],
    ['event_data over 4 KB', '/api/events/track', { event_name: 'a', event_data: { s: 'x'.repeat(4100) } }, /event_data/],
    ['an empty batch', '/api/events/track/batch', { events: [] }, /events/],
    ['a batch over 50', '/api/events/track/batch', { events: Array.from({ length: 51 }, () => ({ event_name: 'a' })) }, /events/],
    ['a batch item over 4 KB', '/api/events/track/batch', { events: [{ event_name: 'a' }, { event_name: 'b', event_data: { s: 'x'.repeat(4100) } }] }, /events\.1\.event_data/],
  ])('answers 400 for %s and stores nothing', async (_n, path, body, message) => {
    const { key } = await sdkProject(t, 'pro')
    const res = await t.request('POST', path, { apiKey: key, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(message)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM events'))[0]!.n).toBe(0)
  })

  it('answers 401 without a valid key', async () => {
    await sdkProject(t, 'pro')
    expect((await t.request('POST', '/api/events/track', { body: { event_name: 'a' } })).status).toBe(401)
  })
})
