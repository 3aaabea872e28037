// Issue 29 item 8: a LAN playtest (every player behind one address) past the SDK budget's default
// of 30 requests a minute. Each refusal is counted for the project, sessions too, and the project's
// usage (the analytics overview) says how many in the last 24 hours and which setting raises it.
import { afterEach, describe, expect, it } from 'vitest'
import { HOUR } from '../../src/lib/clock'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { envelopeOf } from '../sentry/sentry-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
afterEach(() => t.close())

const LAN = '192.0.2.10'
const usage = async () => (await t.request('GET', `/api/projects/${project.slug}/usage`, { token: owner.token })).body.data

describe('SDK refusals on the project overview', () => {
  it('counts every refused crash and session request of the project and reports the last 24 hours with the setting to raise', async () => {
    t = createTestApp()
    owner = await createUser(t, { plan: 'self_hosted' })
    project = await createProject(t, owner)
    const other = await createProject(t, owner)
    const dsnId = (await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).body.data.dsn_id
    const send = (items: [object, string][], key = project.apiKey) =>
      t.request('POST', `/api/${dsnId}/envelope/?sentry_key=${key}&sentry_version=7`, { ip: LAN, headers: { 'content-type': 'application/x-sentry-envelope' }, body: envelopeOf({}, items) })
    const crash = (i: number) => send([[{ type: 'event' }, JSON.stringify({ exception: { values: [{ type: 'Error', value: `boom ${i}`, mechanism: { handled: false } }] }, release: 'game@1.0' })]])
    const session = (i: number) => send([[{ type: 'session' }, JSON.stringify({ sid: crypto.randomUUID(), did: `player-${i}`, init: true, started: new Date().toISOString(), status: 'ok', attrs: { release: 'game@1.0' } })]])

    // 15 crashes, then 20 players' session updates, within the minute: 35 requests from one address,
    // the last 5 (sessions) refused.
    const answers = []
    for (let i = 0; i < 15; i++) answers.push((await crash(i)).status)
    for (let i = 0; i < 20; i++) answers.push((await session(i)).status)
    expect(answers.slice(30)).toEqual([429, 429, 429, 429, 429])
    // Another project's refusals are its own.
    expect((await t.request('POST', '/api/bugs/submit', { apiKey: other.apiKey, ip: LAN, body: { title: 'Hi', description: 'x' } })).status).toBe(429)

    expect((await usage()).sdk_budget).toEqual({ per_minute: 30, setting: 'GLITCHBOX_RATE_LIMIT_PUBLIC', refused_last_hour: 5, refused_last_24_hours: 5 })
    t.clock.advance(2 * HOUR)
    expect((await usage()).sdk_budget).toMatchObject({ refused_last_hour: 0, refused_last_24_hours: 5 })
    t.clock.advance(23 * HOUR)
    expect((await usage()).sdk_budget).toMatchObject({ refused_last_24_hours: 0 })
  })
})
