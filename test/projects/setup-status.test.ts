// The setup checklist's status (issue 25, issue 23): Sentry events and sessions tick it, and the SDK
// budget's refusals of the last hour are counted per project key.
import { afterEach, describe, expect, it } from 'vitest'
import { SdkRefusals } from '../../src/http/sdk-refusals'
import { FakeClock, HOUR, MINUTE } from '../../src/lib/clock'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { envelopeOf } from '../sentry/sentry-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let dsnId: number
afterEach(() => t.close())

async function world(env: Record<string, string> = {}) {
  t = createTestApp({ env })
  owner = await createUser(t, { plan: 'self_hosted' })
  project = await createProject(t, owner)
  dsnId = (await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).body.data.dsn_id
}

const status = async () => (await t.request('GET', `/api/projects/${project.slug}/setup-status`, { token: owner.token })).body.data
const PLAYER = '198.51.100.7'
const submit = (key: string, ip = PLAYER) => t.request('POST', '/api/bugs/submit', { apiKey: key, ip, body: { title: `Bug ${crypto.randomUUID()}`, description: 'It broke.' } })
const sentryStore = (key: string, ip = PLAYER) =>
  t.request('POST', `/api/${dsnId}/store/?sentry_key=${key}&sentry_version=7`, { ip, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Boom', level: 'error' }) })

describe('GET /api/projects/:slug/setup-status', () => {
  it('ticks Sentry events and Sentry sessions apart from the SDK of Glitchbox', async () => {
    await world()
    expect(await status()).toEqual({
      sdk_connected: false,
      has_reports: false,
      reports_from_sdk: false,
      has_sessions: false,
      has_sentry_events: false,
      has_sentry_sessions: false,
      first_report_at: null,
      first_session_at: null,
      public_url: { url: 'http://glitchbox.test', set: true },
      sdk_budget: { per_minute: 30, refused_last_hour: 0 },
    })
    expect((await submit(project.apiKey)).status).toBe(201)
    expect((await t.request('POST', '/api/sessions/start', { body: { api_key: project.apiKey, session_token: 'glitchbox-session-1' } })).status).toBe(201)
    expect(await status()).toMatchObject({ sdk_connected: true, has_reports: true, has_sessions: true, has_sentry_events: false, has_sentry_sessions: false })

    expect((await sentryStore(project.apiKey)).status).toBe(200)
    expect(await status()).toMatchObject({ has_sentry_events: true, has_sentry_sessions: false })

    const session = { sid: '6b147e13dc30431c853e7fa0337a418e', init: true, started: '2026-01-05T11:00:00.000Z', status: 'exited', attrs: { release: 'cave@1.0.0' } }
    const envelope = envelopeOf({ sent_at: '2026-01-05T11:00:00.000Z' }, [[{ type: 'session' }, JSON.stringify(session)]])
    const res = await t.request('POST', `/api/${dsnId}/envelope/`, { headers: { 'x-sentry-auth': `Sentry sentry_key=${project.apiKey}, sentry_version=7` }, body: envelope })
    expect(res.status).toBe(200)
    expect(await status()).toMatchObject({ has_sentry_events: true, has_sentry_sessions: true })
  })

  it('counts the SDK requests the SDK budget refused in the last hour for this project\'s keys, the previous key included', async () => {
    await world({ GLITCHBOX_RATE_LIMIT_PUBLIC: '2' })
    const other = await createProject(t, owner)
    const answers = [await submit(project.apiKey), await submit(project.apiKey), await submit(project.apiKey), await sentryStore(project.apiKey)]
    expect(answers.map((r) => r.status)).toEqual([201, 201, 429, 429])
    // Another project's key and a request without a key count nothing here.
    expect((await submit(other.apiKey)).status).toBe(429)
    expect((await t.request('POST', '/api/bugs/submit', { ip: PLAYER, body: {} })).status).toBe(429)
    expect(await status()).toMatchObject({ sdk_budget: { per_minute: 2, refused_last_hour: 2 } })

    const old = project.apiKey
    expect((await t.request('POST', `/api/projects/${project.slug}/rotate-key`, { token: owner.token, body: { grace_days: 7 } })).status).toBe(200)
    t.clock.advance(MINUTE)
    const refused = [await submit(old), await submit(old), await submit(old)].map((r) => r.status)
    expect(refused).toEqual([201, 201, 429])
    expect((await status()).sdk_budget.refused_last_hour).toBe(3)

    t.clock.advance(HOUR - MINUTE)
    expect((await status()).sdk_budget.refused_last_hour).toBe(1)
    t.clock.advance(MINUTE)
    expect((await status()).sdk_budget.refused_last_hour).toBe(0)
  })

  it('says when GLITCHBOX_PUBLIC_URL is unset: the DSN then uses http://localhost:PORT (issue 29)', async () => {
    await world({ GLITCHBOX_PUBLIC_URL: '', PORT: '4100' })
    expect((await status()).public_url).toEqual({ url: 'http://localhost:4100', set: false })
    expect((await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).body.data.dsn).toMatch(/^http:\/\/sk_[^@]+@localhost:4100\//)
  })

  it('says when the budget is off', async () => {
    await world({ GLITCHBOX_RATE_LIMIT_PUBLIC: '0' })
    expect((await status()).sdk_budget).toEqual({ per_minute: null, refused_last_hour: 0 })
  })
})

describe('SdkRefusals', () => {
  it('counts at most maxKeys keys a minute, so made-up keys cannot grow it, and forgets minutes past the hour', () => {
    const clock = new FakeClock()
    const r = new SdkRefusals(clock, 3)
    for (const k of ['a', 'b', 'c', 'd', 'e', 'a']) r.record(k)
    expect([r.lastHour(['a']), r.lastHour(['c']), r.lastHour(['d', 'e'])]).toEqual([2, 1, 0])
    clock.advance(MINUTE)
    r.record('d')
    expect(r.lastHour(['a', 'd'])).toBe(3)
    clock.advance(HOUR)
    r.record('z')
    expect(r.lastHour(['a', 'd', 'z'])).toBe(1)
    expect((r as unknown as { minutes: Map<number, unknown> }).minutes.size).toBe(1)
  })
})
