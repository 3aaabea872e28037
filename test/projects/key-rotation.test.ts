// Rotating the SDK key with a grace period (issue 25): shipped builds keep their old key, so it keeps
// working, for every SDK route and the Sentry routes, until the grace the studio chose ends.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let owner: TestUser
let project: TestProject
let dsnId: number
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  dsnId = (await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).body.data.dsn_id
})
afterEach(() => t.close())

let n = 0
const rotate = (body?: unknown) => t.request('POST', `/api/projects/${project.slug}/rotate-key`, { token: owner.token, body })
const detail = async () => (await t.request('GET', `/api/projects/${project.slug}`, { token: owner.token })).body.data
const submit = async (key: string) => (await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: `Bug ${++n}`, description: 'It broke.' } })).status
const startSession = async (key: string) => (await t.request('POST', '/api/sessions/start', { body: { api_key: key, session_token: `session-${++n}-token` } })).status
const sentryEvent = async (key: string) =>
  (
    await t.request('POST', `/api/${dsnId}/store/`, {
      headers: { 'x-sentry-auth': `Sentry sentry_key=${key}, sentry_version=7`, 'content-type': 'application/json' },
      body: JSON.stringify({ event_id: crypto.randomUUID().replace(/-/g, ''), message: `Sentry bug ${++n}`, level: 'error' }),
    })
  ).status
/** What each SDK route answers for `key`: submit, session start, Sentry store. */
const routes = async (key: string) => [await submit(key), await startSession(key), await sentryEvent(key)]

describe('POST /api/projects/:slug/rotate-key with a grace period', () => {
  it('keeps the old key working on every SDK route until the grace ends, shows both keys meanwhile, then refuses it', async () => {
    const old = project.apiKey
    const res = await rotate({ grace_days: 7 })
    expect(res.status).toBe(200)
    const until = new Date(t.clock.now().getTime() + 7 * DAY).toISOString()
    expect(res.body.data).toEqual({ api_key: expect.stringMatching(/^sk_live_/), previous_api_key: old, previous_api_key_expires_at: until })
    const fresh = res.body.data.api_key
    expect(await detail()).toMatchObject({ api_key: fresh, previous_api_key: old, previous_api_key_expires_at: until, dsn: expect.stringContaining(fresh) })

    expect(await routes(old)).toEqual([201, 201, 200])
    expect(await routes(fresh)).toEqual([201, 201, 200])

    // The old key was just used (and is kept in memory for a second): the end of the grace still applies at once.
    t.clock.advance(7 * DAY - 1000)
    expect(await submit(old)).toBe(201)
    t.clock.advance(1000)
    expect(await routes(old)).toEqual([401, 401, 401])
    expect(await routes(fresh)).toEqual([201, 201, 200])
    expect(await detail()).toMatchObject({ api_key: fresh, previous_api_key: null, previous_api_key_expires_at: null })
  })

  it.each([
    ['no body', undefined],
    ['grace_days 0', { grace_days: 0 }],
  ])('with %s stops the old key at once, as before', async (_, body) => {
    const res = await rotate(body)
    expect(res.body.data).toMatchObject({ previous_api_key: null, previous_api_key_expires_at: null })
    expect(await routes(project.apiKey)).toEqual([401, 401, 401])
    expect(await submit(res.body.data.api_key)).toBe(201)
  })

  it('gives a grace only to the key it replaces: a key still in its grace from before stops at once', async () => {
    const first = project.apiKey
    const second = (await rotate({ grace_days: 30 })).body.data.api_key
    const third = await rotate({ grace_days: 1 })
    expect(third.body.data).toMatchObject({ previous_api_key: second })
    expect([await submit(first), await submit(second), await submit(third.body.data.api_key)]).toEqual([401, 201, 201])
    // A rotation without grace (a leaked key) ends the running grace too.
    const fourth = (await rotate({ grace_days: 0 })).body.data.api_key
    expect([await submit(second), await submit(third.body.data.api_key), await submit(fourth)]).toEqual([401, 401, 201])
  })

  it.each([[{ grace_days: 3 }], [{ grace_days: '7' }], [{ grace_days: -1 }]])('refuses %j with 400 and keeps the key', async (body) => {
    const res = await rotate(body)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/grace_days/)
    expect((await detail()).api_key).toBe(project.apiKey)
    expect(await submit(project.apiKey)).toBe(201)
  })

  it('records the grace in the audit log', async () => {
    await rotate({ grace_days: 30 })
    const log = (await t.request('GET', `/api/projects/${project.slug}/audit-log`, { token: owner.token })).body.data
    expect(log.entries[0]).toMatchObject({ action: 'project.key_rotated', details: { grace_days: 30 } })
  })
})
