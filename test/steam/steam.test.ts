import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectJobs } from '../../src/jobs/registry'
import { HOUR, MINUTE } from '../../src/lib/clock'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../webhooks/helpers'
import { type FakeReview, startFakeSteam } from './fake-steam'

const START = '2026-03-10T12:00:00Z'
let t: TestApp
let owner: TestUser
let project: TestProject
let steam: ReturnType<typeof startFakeSteam>
const base = () => `/api/projects/${project.slug}/steam`

function reviews(): FakeReview[] {
  return [
    { id: '101', up: true, ageDays: 0 },
    { id: '102', up: false, ageDays: 0, playtimeMinutes: 45, text: 'Crashes on launch' },
    { id: '103', up: false, ageDays: 1, playtimeMinutes: 900, text: 'I want a REFUND after 15 hours' },
    { id: '104', up: true, ageDays: 2 },
    { id: '105', up: false, ageDays: 2, playtimeMinutes: 130 },
  ]
}

beforeEach(async () => {
  steam = startFakeSteam({ now: new Date(START), reviews: reviews(), pageSize: 2 })
  t = createTestApp({ start: START, env: { GLITCHBOX_PROVIDER_URL_STEAM: steam.url } })
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => {
  steam.stop()
  t.close()
})

const connect = (body: unknown = { app_id: 4242 }) => t.request('POST', base(), { token: owner.token, body })

describe('connect, update, delete', () => {
  it.each([
    [{}, 'app_id'],
    [{ app_id: 0 }, 'app_id'],
    [{ app_id: -5 }, 'app_id'],
    [{ app_id: 1.5 }, 'app_id'],
    [{ app_id: 'abc' }, 'app_id'],
    [{ app_id: 4242, sync_enabled: 'yes' }, 'sync_enabled'],
  ])('refuses %j with 400 naming the field', async (body, message) => {
    const res = await connect(body)
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
  })

  it('connects, reads, pauses and disconnects', async () => {
    expect((await t.request('GET', base(), { token: owner.token })).status).toBe(404)
    const created = await connect({ app_id: '4242' })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ app_id: 4242, sync_enabled: true, last_sync_at: null })
    expect((await connect()).status).toBe(409)
    const got = await t.request('GET', base(), { token: owner.token })
    expect(got.body.data).toMatchObject({ app_id: 4242, store_url: 'https://store.steampowered.com/app/4242/' })
    expect((await t.request('PATCH', base(), { token: owner.token, body: {} })).body.error).toContain('sync_enabled')
    expect((await t.request('PATCH', base(), { token: owner.token, body: { sync_enabled: false } })).status).toBe(200)
    expect((await t.request('GET', base(), { token: owner.token })).body.data.sync_enabled).toBe(false)
    expect((await t.request('DELETE', base(), { token: owner.token })).body.data.message).toBe('Steam disconnected')
    expect((await t.request('GET', base(), { token: owner.token })).status).toBe(404)
  })

  it('lets members read and only project.integrations change', async () => {
    await connect()
    const member = await addMember(t, owner)
    expect((await t.request('GET', `${base()}/dashboard`, { token: member.token })).status).toBe(200)
    expect((await t.request('PATCH', base(), { token: member.token, body: { sync_enabled: false } })).status).toBe(403)
    expect((await t.request('POST', `${base()}/sync`, { token: member.token })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('GET', base(), { token: stranger.token })).status).toBe(404)
  })
})

describe('sync', () => {
  it('imports every review once, following the cursor, with the query Steam expects', async () => {
    await connect()
    const first = await t.request('POST', `${base()}/sync`, { token: owner.token })
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual({ fetched: 5, new: 5 })
    const q = steam.seen[0]!
    expect(q.pathname).toBe('/appreviews/4242')
    expect(Object.fromEntries(q.searchParams)).toEqual({ json: '1', filter: 'recent', cursor: '*', num_per_page: '100', language: 'all', purchase_type: 'all' })
    expect(steam.seen.map((u) => u.searchParams.get('cursor'))).toEqual(['*', 'c2', 'c4', 'c5'])

    steam.state.reviews = [{ id: '106', up: true, ageDays: 0 }, ...reviews()]
    const second = await t.request('POST', `${base()}/sync`, { token: owner.token })
    // The second page holds only known reviews: the import stops there.
    expect(second.body.data).toEqual({ fetched: 4, new: 1 })

    const stats = await t.request('GET', `${base()}/sync-stats`, { token: owner.token })
    expect(stats.body.data).toMatchObject({ last_sync_at: START.replace('Z', '.000Z'), fetched: 4, new: 1, errors: 0, syncs: 2, stored_reviews: 6, last_error: null })
  })

  it('answers 502 with what Steam said and counts the error', async () => {
    await connect()
    steam.state.fail = { status: 503, body: 'Service Unavailable' }
    const res = await t.request('POST', `${base()}/sync`, { token: owner.token })
    expect(res.status).toBe(502)
    expect(res.body.error).toBe('Steam answered 503: Service Unavailable')
    const stats = await t.request('GET', `${base()}/sync-stats`, { token: owner.token })
    expect(stats.body.data).toMatchObject({ errors: 1, syncs: 0, last_error: 'Steam answered 503: Service Unavailable' })
  })

  it('answers 502 when Steam says success 2', async () => {
    await connect()
    steam.state.fail = { status: 200, body: JSON.stringify({ success: 2 }) }
    const res = await t.request('POST', `${base()}/sync`, { token: owner.token })
    expect(res.status).toBe(502)
    expect(res.body.error).toContain('Steam refused the request for app 4242')
  })

  it('queues the first import on connect, retries a failure after 1 minute, and syncs hourly while enabled', async () => {
    steam.state.fail = { status: 500, body: 'oops' }
    await connect()
    await t.runner.drain()
    expect(steam.seen).toHaveLength(1)
    steam.state.fail = null
    t.clock.advance(MINUTE - 1000)
    await t.runner.drain()
    expect(steam.seen).toHaveLength(1)
    t.clock.advance(1000)
    await t.runner.drain()
    expect((await t.request('GET', `${base()}/sync-stats`, { token: owner.token })).body.data).toMatchObject({ stored_reviews: 5, errors: 1, syncs: 1 })

    const hourly = collectJobs(t.deps).schedules.find((s) => s.name === 'steam.hourly-sync')!
    t.clock.advance(HOUR)
    await hourly.run()
    await t.runner.drain()
    expect(steam.seen.filter((u) => u.searchParams.get('cursor') === '*')).toHaveLength(3)

    await t.request('PATCH', base(), { token: owner.token, body: { sync_enabled: false } })
    t.clock.advance(HOUR)
    await hourly.run()
    await t.runner.drain()
    expect(steam.seen.filter((u) => u.searchParams.get('cursor') === '*')).toHaveLength(3)
  })
})

describe('reads', () => {
  beforeEach(async () => {
    await connect()
    await t.request('POST', `${base()}/sync`, { token: owner.token })
  })

  it('pages reviews newest first and filters positive or negative', async () => {
    const all = await t.request('GET', `${base()}/reviews`, { token: owner.token })
    expect(all.body.data).toMatchObject({ page: 1, per_page: 50, total: 5 })
    expect(all.body.data.reviews.map((r: any) => r.recommendation_id).slice(2)).toEqual(['103', '105', '104'])
    expect(all.body.data.reviews[0]).toMatchObject({ voted_up: expect.any(Boolean), playtime_at_review_minutes: expect.any(Number), posted_at: expect.any(String) })
    const neg = await t.request('GET', `${base()}/reviews?filter=negative`, { token: owner.token })
    expect(neg.body.data.reviews.map((r: any) => r.recommendation_id).sort()).toEqual(['102', '103', '105'])
    const pos = await t.request('GET', `${base()}/reviews?filter=positive&page=2`, { token: owner.token })
    expect(pos.body.data).toMatchObject({ page: 2, total: 2, reviews: [] })
    expect((await t.request('GET', `${base()}/reviews?filter=mixed`, { token: owner.token })).body.error).toContain('filter')
    expect((await t.request('GET', `${base()}/reviews?page=0`, { token: owner.token })).body.error).toContain('page')
  })

  it('counts reviews per day and shows the score and positive share', async () => {
    const history = await t.request('GET', `${base()}/review-history?days=3`, { token: owner.token })
    expect(history.body.data).toEqual([
      { date: '2026-03-08', total: 2, positive: 1, negative: 1 },
      { date: '2026-03-09', total: 1, positive: 0, negative: 1 },
      { date: '2026-03-10', total: 2, positive: 1, negative: 1 },
    ])
    const dash = await t.request('GET', `${base()}/dashboard?days=2`, { token: owner.token })
    expect(dash.body.data).toMatchObject({ app_id: 4242, review_score: 6, review_score_desc: 'Mostly Positive', total_reviews: 5, total_positive: 2, positive_share: 0.4, stored_reviews: 5 })
    expect(dash.body.data.over_time).toEqual([
      { date: '2026-03-09', total: 1, positive: 0, negative: 1, positive_share: 0 },
      { date: '2026-03-10', total: 2, positive: 1, negative: 1, positive_share: 0.5 },
    ])
    expect((await t.request('GET', `${base()}/dashboard?days=400`, { token: owner.token })).body.error).toContain('days')
  })

  it('flags negative reviews under two hours played and reviews mentioning refunds', async () => {
    steam.state.reviews = [{ id: '106', up: true, ageDays: 0, text: 'Возврат не нужен, отличная игра' }, ...reviews()]
    await t.request('POST', `${base()}/sync`, { token: owner.token })
    const res = await t.request('GET', `${base()}/refund-signals`, { token: owner.token })
    expect(res.body.data.playtime_threshold_minutes).toBe(120)
    expect(res.body.data.low_playtime_negative.total).toBe(1)
    expect(res.body.data.low_playtime_negative.reviews.map((r: any) => r.recommendation_id)).toEqual(['102'])
    expect(res.body.data.refund_mentions.reviews.map((r: any) => r.recommendation_id)).toEqual(['106', '103'])
  })

  it('answers 404 on every read when Steam is not connected', async () => {
    await t.request('DELETE', base(), { token: owner.token })
    for (const path of ['dashboard', 'reviews', 'review-history', 'refund-signals', 'sync-stats']) {
      expect((await t.request('GET', `${base()}/${path}`, { token: owner.token })).status).toBe(404)
    }
  })
})
