import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { integrationsJobs } from '../../src/modules/integrations/integrations.jobs'
import { enqueueStoreSyncs } from '../../src/modules/integrations/store-reviews.jobs'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, type Fake, startFake } from './helpers'
import { APP_ID, appleReview, ISSUER, KEY_ID, type Keys, makeKeys, PACKAGE, playReview, type StoreState, storeFake } from './stores.fakes'

let keys: Keys
beforeAll(async () => {
  keys = await makeKeys()
})

const bed = {} as { t: TestApp; fake: Fake; owner: TestUser; project: TestProject; base: string; state: StoreState }
const DAY = 86_400_000
const T0 = Date.parse('2026-01-01T10:00:00Z')

beforeEach(async () => {
  bed.fake = startFake()
  bed.state = {
    playReviews: [
      playReview('gp-1', 5, 'Great game\tLove the art style', T0),
      playReview('gp-2', 1, 'Crashes every time I open the map', T0 + DAY, 'Sorry! Fixed in 1.4.3'),
      playReview('gp-3', 2, 'So much lag in multiplayer, unplayable', T0 + 2 * DAY),
      playReview('gp-4', 4, 'Fun but short', T0 + 3 * DAY),
      playReview('gp-5', 3, 'The music is too loud', T0 + 4 * DAY),
    ],
    applePages: [
      {
        data: [appleReview('as-1', 1, 'Broken', 'Black screen after the update', '2026-01-03T08:00:00-08:00', 'r-as-1'), appleReview('as-2', 5, 'Wow', 'Best puzzle game', '2026-01-02T08:00:00-08:00')],
        included: [{ type: 'customerReviewResponses', id: 'r-as-1', attributes: { responseBody: 'We are on it', lastModifiedDate: '2026-01-03T09:00:00-08:00', state: 'PUBLISHED' } }],
      },
      { data: [appleReview('as-3', 2, 'Meh', 'The buttons are too small', '2026-01-01T08:00:00-08:00')] },
    ],
    tokenRequests: 0,
    failures: [],
  }
  bed.fake.answer = storeFake(keys, bed.state)
  const env: Record<string, string> = {}
  for (const k of ['GOOGLE_OAUTH', 'GOOGLE_PLAY', 'APP_STORE']) env[`GLITCHBOX_PROVIDER_URL_${k}`] = bed.fake.url
  bed.t = createTestApp({ env })
  bed.owner = await createUser(bed.t)
  bed.project = await createProject(bed.t, bed.owner)
  bed.base = `/api/projects/${bed.project.slug}`
})
afterEach(() => {
  expect(bed.state.failures).toEqual([])
  bed.fake.stop()
  bed.t.close()
})

const req = (method: string, path: string, body?: unknown, token = bed.owner.token) => bed.t.request(method, `${bed.base}${path}`, { token, body })

async function connectPlay(extra: Record<string, unknown> = {}) {
  const res = await req('POST', '/integrations/google_play', { secret: keys.serviceAccount, config: { package_name: PACKAGE }, ...extra })
  expect(res.status).toBe(201)
  return res.body.data.id as string
}
async function connectApple(extra: Record<string, unknown> = {}, secret = keys.p8) {
  const res = await req('POST', '/integrations/app_store', { secret, config: { issuer_id: ISSUER, key_id: KEY_ID, app_id: APP_ID }, ...extra })
  expect(res.status).toBe(201)
  return res.body.data.id as string
}
const reviews = async (query = '') => {
  const res = await req('GET', `/store-reviews${query}`)
  expect(res.status).toBe(200)
  return res.body.data as any[]
}

describe('store connections', () => {
  it('validates the credential and config of each store, naming the field', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['google_play', { secret: 'not json', config: { package_name: PACKAGE } }, "secret must be the service account's JSON key file (it does not parse as JSON)"],
      ['google_play', { secret: JSON.stringify({ client_email: 'a@b.c', token_uri: 'https://oauth2.googleapis.com/token' }), config: { package_name: PACKAGE } }, 'secret: the JSON key has no private_key'],
      ['google_play', { secret: JSON.stringify({ ...JSON.parse(keys.serviceAccount), token_uri: 'https://evil.example/token' }), config: { package_name: PACKAGE } }, "secret: token_uri must be Google's token endpoint (https://oauth2.googleapis.com/token)"],
      ['google_play', { secret: JSON.stringify({ ...JSON.parse(keys.serviceAccount), private_key: 'nope' }), config: { package_name: PACKAGE } }, 'secret: private_key is not an RSA private key in PEM form'],
      ['google_play', { secret: keys.serviceAccount, config: {} }, 'config.package_name is required'],
      ['google_play', { secret: keys.serviceAccount, config: { package_name: 'game' } }, 'config.package_name must be an Android package name like com.studio.game'],
      ['app_store', { secret: 'AuthKey', config: { issuer_id: ISSUER, key_id: KEY_ID, app_id: APP_ID } }, 'secret must be the App Store Connect API key: the contents of the .p8 file (-----BEGIN PRIVATE KEY----- …)'],
      ['app_store', { secret: keys.p8, config: { key_id: KEY_ID, app_id: APP_ID } }, 'config.issuer_id is required'],
      ['app_store', { secret: keys.p8, config: { issuer_id: ISSUER, key_id: KEY_ID, app_id: 'com.studio.game' } }, "config.app_id must be the app's Apple id (digits)"],
      ['app_store', { secret: keys.p8, event_types: ['bug_created'], config: { issuer_id: ISSUER, key_id: KEY_ID, app_id: APP_ID } }, 'event_types: App Store does not take bug_created (it takes reviews, review_bugs)'],
    ]
    for (const [provider, body, error] of cases) {
      const res = await req('POST', `/integrations/${provider}`, body)
      expect({ provider, status: res.status, body: res.body }).toEqual({ provider, status: 400, body: { ok: false, error } })
    }
    expect(bed.fake.calls).toEqual([])
    const providers = (await bed.t.request('GET', '/api/integrations/providers', { token: bed.owner.token })).body.data
    expect(providers.filter((p: any) => p.kind === 'store').map((p: any) => [p.key, p.available, p.default_events])).toEqual([
      ['google_play', true, ['reviews']],
      ['app_store', true, ['reviews']],
    ])
  })

  it('test checks the credential with the store', async () => {
    const play = await connectPlay()
    const apple = await connectApple()
    expect((await req('POST', `/integrations/google_play/${play}/test`)).body.data.message).toBe(`Google Play accepted the key for ${PACKAGE}`)
    expect((await req('POST', `/integrations/app_store/${apple}/test`)).body.data.message).toBe(`App Store Connect accepted the key for app ${APP_ID}`)
    expect(bed.fake.calls.every((c) => c.headers.get('user-agent') === 'Glitchbox/0.0.0-test')).toBe(true)
  })
})

describe('google_play sync', () => {
  it('imports every review once through the JWT-bearer token (cached), newest first', async () => {
    const id = await connectPlay()
    const first = await req('POST', `/integrations/google_play/${id}/sync`)
    expect(first.status).toBe(200)
    expect(first.body.data).toEqual({ fetched: 5, new: 5, filed: 0 })
    expect(bed.state.tokenRequests).toBe(1)
    const second = await req('POST', `/integrations/google_play/${id}/sync`)
    expect(second.body.data).toEqual({ fetched: 5, new: 0, filed: 0 })
    // The access token is reused until it nears expiry, then fetched again.
    expect(bed.state.tokenRequests).toBe(1)
    bed.t.clock.advance(3_600_000)
    await req('POST', `/integrations/google_play/${id}/sync`)
    expect(bed.state.tokenRequests).toBe(2)

    const list = await reviews()
    expect(list.map((r) => r.store_review_id)).toEqual(['gp-5', 'gp-4', 'gp-3', 'gp-2', 'gp-1'])
    expect(list.find((r) => r.store_review_id === 'gp-1')).toMatchObject({
      provider: 'google_play',
      integration_id: id,
      author: 'Player gp-1',
      rating: 5,
      title: 'Great game',
      body: 'Love the art style',
      language: 'en',
      app_version: '1.4.2',
      device: 'a52q',
      reviewed_at: new Date(T0).toISOString(),
      reply: null,
      report_number: null,
    })
    expect(list.find((r) => r.store_review_id === 'gp-2').reply).toEqual({ body: 'Sorry! Fixed in 1.4.3', replied_at: new Date(T0 + DAY + 60_000).toISOString(), state: null })
    expect((await reviews('?max_rating=2')).map((r) => r.store_review_id)).toEqual(['gp-3', 'gp-2'])
    expect(await reviews('?provider=app_store')).toEqual([])
    expect((await req('GET', '/store-reviews?max_rating=6')).status).toBe(400)
    expect((await req('GET', '/store-reviews?provider=steam')).status).toBe(400)
    // Listing needs membership only.
    const member = await addMember(bed.t, bed.owner, { 'project.integrations': false })
    expect((await req('GET', '/store-reviews', undefined, member.token)).body.data).toHaveLength(5)
    const stranger = await createUser(bed.t)
    expect((await req('GET', '/store-reviews', undefined, stranger.token)).status).toBe(404)
  })

  it('pages the list 50 at a time, newest first', async () => {
    bed.state.playReviews = Array.from({ length: 61 }, (_, i) => playReview(`gp-${i}`, 3, `review ${i}`, T0 + i * 60_000))
    const id = await connectPlay()
    expect((await req('POST', `/integrations/google_play/${id}/sync`)).body.data).toEqual({ fetched: 61, new: 61, filed: 0 })
    // The fake lists 40 a page and Play lists newest first: the first page, all known, ends the next import.
    expect((await req('POST', `/integrations/google_play/${id}/sync`)).body.data).toEqual({ fetched: 40, new: 0, filed: 0 })
    const p1 = await reviews()
    const p2 = await reviews('?page=2')
    expect(p1).toHaveLength(50)
    expect(p1[0].store_review_id).toBe('gp-60')
    expect(p2.map((r) => r.store_review_id)).toEqual(Array.from({ length: 11 }, (_, i) => `gp-${10 - i}`))
    expect(await reviews('?page=3')).toEqual([])
  })

  it('review_bugs files one- and two-star reviews as system reports once each', async () => {
    const id = await connectPlay({ event_types: ['reviews', 'review_bugs'] })
    expect((await req('POST', `/integrations/google_play/${id}/sync`)).body.data).toEqual({ fetched: 5, new: 5, filed: 2 })
    bed.state.playReviews.push(playReview('gp-6', 1, 'No sound at all', T0 + 5 * DAY))
    expect((await req('POST', `/integrations/google_play/${id}/sync`)).body.data).toEqual({ fetched: 6, new: 1, filed: 1 })
    expect((await req('POST', `/integrations/google_play/${id}/sync`)).body.data).toEqual({ fetched: 6, new: 0, filed: 0 })

    const low = await reviews('?max_rating=2')
    expect(low.map((r) => [r.store_review_id, r.report_number])).toEqual([
      ['gp-6', 3],
      ['gp-3', 2],
      ['gp-2', 1],
    ])
    const bug = async (n: number) => (await req('GET', `/bugs/${n}`)).body.data.bug
    expect(await bug(1)).toMatchObject({ title: 'Google Play review ★: Crashes every time I open the map', source: 'system', category: 'crash', priority: 'medium', platform: 'Android', game_version: '1.4.2' })
    expect(await bug(2)).toMatchObject({ title: 'Google Play review ★★: So much lag in multiplayer, unplayable', category: 'performance', priority: 'low' })
    expect(await bug(3)).toMatchObject({ category: 'audio' })
    expect((await req('GET', '/bugs/4')).status).toBe(404)
  })

  it('answers 502 with Google\'s message when the key is refused, 400 for a paused or non-store connection, 404 for an unknown one', async () => {
    const res = await req('POST', '/integrations/google_play', { secret: keys.wrongServiceAccount, config: { package_name: PACKAGE } })
    const id = res.body.data.id
    const sync = await req('POST', `/integrations/google_play/${id}/sync`)
    expect(sync.status).toBe(502)
    expect(sync.body).toEqual({ ok: false, error: 'Google Play answered 400: invalid_grant; Invalid JWT Signature.' })
    expect(await reviews()).toEqual([])

    const good = await connectPlay()
    expect((await req('PATCH', `/integrations/google_play/${good}`, { is_active: false })).status).toBe(200)
    expect((await req('POST', `/integrations/google_play/${good}/sync`)).body).toEqual({ ok: false, error: 'the integration is paused; resume it to import reviews' })
    const pd = await req('POST', '/integrations/pagerduty', { secret: 'R0123456789abcdef0123456789abcdef' })
    expect((await req('POST', `/integrations/pagerduty/${pd.body.data.id}/sync`)).body).toEqual({ ok: false, error: 'sync is for store providers (google_play, app_store), not PagerDuty' })
    expect((await req('POST', '/integrations/google_play/00000000-0000-0000-0000-000000000000/sync')).status).toBe(404)
    const member = await addMember(bed.t, bed.owner, { 'project.integrations': false })
    expect((await req('POST', `/integrations/google_play/${good}/sync`, undefined, member.token)).status).toBe(403)
  })
})

describe('replies', () => {
  it('google_play: posts and replaces the public reply, 350 characters at most', async () => {
    const id = await connectPlay()
    await req('POST', `/integrations/google_play/${id}/sync`)
    const review = (await reviews()).find((r) => r.store_review_id === 'gp-3')
    const path = `/store-reviews/${review.id}/reply`
    const long = await req('POST', path, { body: 'x'.repeat(351) })
    expect(long.body).toEqual({ ok: false, error: 'body: Google Play replies are at most 350 characters (this one has 351)' })
    expect(bed.fake.calls.some((c) => c.path.endsWith(':reply'))).toBe(false)

    expect((await req('POST', path, { body: 'Thanks, a fix for the lag is coming in 1.5' })).body.data).toEqual({ message: 'Reply posted' })
    const max = 'y'.repeat(350)
    expect((await req('POST', path, { body: max })).body.data).toEqual({ message: 'Reply replaced' })
    const replies = bed.fake.calls.filter((c) => c.path.endsWith(':reply'))
    expect(replies.map((c) => [c.method, c.path, c.json])).toEqual([
      ['POST', `/androidpublisher/v3/applications/${PACKAGE}/reviews/gp-3:reply`, { replyText: 'Thanks, a fix for the lag is coming in 1.5' }],
      ['POST', `/androidpublisher/v3/applications/${PACKAGE}/reviews/gp-3:reply`, { replyText: max }],
    ])
    expect(replies[0]!.headers.get('authorization')).toBe('Bearer ya29.c.fake-access-token')
    expect((await reviews()).find((r) => r.id === review.id).reply).toEqual({ body: max, replied_at: '2026-01-05T12:01:00.000Z', state: null })

    expect((await req('POST', '/store-reviews/00000000-0000-0000-0000-000000000000/reply', { body: 'hi' })).status).toBe(404)
    expect((await req('POST', path, { body: '' })).status).toBe(400)
    const member = await addMember(bed.t, bed.owner, { 'project.integrations': false })
    expect((await req('POST', path, { body: 'hi' }, member.token)).status).toBe(403)
    const other = await createUser(bed.t)
    const otherProject = await createProject(bed.t, other)
    expect((await bed.t.request('POST', `/api/projects/${otherProject.slug}/store-reviews/${review.id}/reply`, { token: other.token, body: { body: 'hi' } })).status).toBe(404)
  })

  it('app_store: posts a customerReviewResponse and replaces it through the same call; 502 with Apple\'s message', async () => {
    const id = await connectApple()
    await req('POST', `/integrations/app_store/${id}/sync`)
    const list = await reviews()
    const as1 = list.find((r) => r.store_review_id === 'as-1')
    expect(as1.reply).toEqual({ body: 'We are on it', replied_at: '2026-01-03T17:00:00.000Z', state: 'PUBLISHED' })
    expect((await req('POST', `/store-reviews/${as1.id}/reply`, { body: 'Fixed in 2.0.1, please update' })).body.data).toEqual({ message: 'Reply replaced' })
    const as3 = list.find((r) => r.store_review_id === 'as-3')
    expect((await req('POST', `/store-reviews/${as3.id}/reply`, { body: 'z'.repeat(400) })).body.data).toEqual({ message: 'Reply posted' })
    expect((await req('POST', `/store-reviews/${as3.id}/reply`, { body: 'z'.repeat(5971) })).status).toBe(400)
    const posts = bed.fake.calls.filter((c) => c.method === 'POST' && c.path === '/v1/customerReviewResponses')
    expect(posts[0]!.json).toEqual({
      data: { type: 'customerReviewResponses', attributes: { responseBody: 'Fixed in 2.0.1, please update' }, relationships: { review: { data: { type: 'customerReviews', id: 'as-1' } } } },
    })
    expect(posts).toHaveLength(2)
    expect((await reviews()).find((r) => r.store_review_id === 'as-1').reply).toEqual({ body: 'Fixed in 2.0.1, please update', replied_at: '2026-01-05T20:01:00.000Z', state: 'PENDING_PUBLISH' })

    // A key the store refuses: the reply route answers 502 with Apple's words.
    const res = await req('PATCH', `/integrations/app_store/${id}`, { secret: keys.wrongP8 })
    expect(res.status).toBe(200)
    const refused = await req('POST', `/store-reviews/${as3.id}/reply`, { body: 'again' })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('App Store Connect answered 401: Authentication credentials are missing or invalid. Provide a properly configured and signed bearer token, and make sure that it has not expired.')
  })
})

describe('app_store sync', () => {
  it('imports every page once with ES256 tokens, stops at a page with nothing new, files low-star reviews once; 502 with Apple\'s message for a refused key', async () => {
    const id = await connectApple({ event_types: ['reviews', 'review_bugs'] })
    expect((await req('POST', `/integrations/app_store/${id}/sync`)).body.data).toEqual({ fetched: 3, new: 3, filed: 2 })
    // Newest first: a page holding nothing new ends the import.
    expect((await req('POST', `/integrations/app_store/${id}/sync`)).body.data).toEqual({ fetched: 2, new: 0, filed: 0 })
    const gets = bed.fake.calls.filter((c) => c.method === 'GET')
    expect(gets).toHaveLength(3)
    expect(gets[0]!.path).toBe(`/v1/apps/${APP_ID}/customerReviews?sort=-createdDate&limit=200&include=response`)
    // links.next is followed on the configured base, not on the host the answer names.
    expect(gets[1]!.path).toBe(`/v1/apps/${APP_ID}/customerReviews?cursor=1&limit=200`)
    const list = await reviews()
    expect(list.map((r) => [r.store_review_id, r.rating, r.title, r.territory, r.report_number])).toEqual([
      ['as-1', 1, 'Broken', 'USA', 2],
      ['as-2', 5, 'Wow', 'USA', null],
      ['as-3', 2, 'Meh', 'USA', 1],
    ])
    expect((await req('GET', '/bugs/2')).body.data.bug).toMatchObject({ title: 'App Store review ★: Broken', category: 'crash', platform: 'iOS', source: 'system', reporter_name: 'nick-as-1' })
    expect((await req('GET', '/bugs/1')).body.data.bug).toMatchObject({ category: 'ui' })

    const bad = await connectApple({}, keys.wrongP8)
    const res = await req('POST', `/integrations/app_store/${bad}/sync`)
    expect(res.status).toBe(502)
    expect(res.body.error).toBe('App Store Connect answered 401: Authentication credentials are missing or invalid. Provide a properly configured and signed bearer token, and make sure that it has not expired.')
  })
})

describe('hourly import', () => {
  it('enqueues one import per active store connection subscribed to reviews, once an hour', async () => {
    const play = await connectPlay({ event_types: ['reviews', 'review_bugs'] })
    const apple = await connectApple()
    const paused = await connectApple()
    await req('PATCH', `/integrations/app_store/${paused}`, { is_active: false })
    await connectApple({ event_types: ['review_bugs'] })
    const schedule = integrationsJobs(bed.t.deps).schedules!.find((s) => s.name === 'integrations.store-sync')!
    expect(schedule.pattern).toBe('0 * * * *')

    await schedule.run()
    await schedule.run()
    await bed.t.runner.drain()
    expect(bed.state.tokenRequests).toBe(1)
    // One Play import (its token and one list call), and two App Store pages for the one active subscribed connection.
    expect(bed.fake.calls.filter((c) => c.path.startsWith('/androidpublisher/'))).toHaveLength(1)
    expect(bed.fake.calls.filter((c) => c.path.startsWith('/v1/apps/'))).toHaveLength(2)
    const list = await reviews()
    expect(list).toHaveLength(8)
    expect(new Set(list.map((r) => r.integration_id))).toEqual(new Set([play, apple]))
    expect((await reviews('?max_rating=2')).map((r) => [r.store_review_id, r.report_number])).toEqual([['as-1', null], ['gp-3', 2], ['gp-2', 1], ['as-3', null]])

    bed.t.clock.advance(3_600_000)
    bed.state.playReviews.push(playReview('gp-9', 2, 'Stuck on level 3', T0 + 9 * DAY))
    await schedule.run()
    await bed.t.runner.drain()
    expect(await reviews()).toHaveLength(9)
    expect((await reviews('?max_rating=2&provider=google_play'))[0]).toMatchObject({ store_review_id: 'gp-9', report_number: 3 })
  })
})

describe.each([
  { provider: 'google_play', connectStore: () => connectPlay(), listPath: '/androidpublisher/', imported: 5 },
  { provider: 'app_store', connectStore: () => connectApple(), listPath: '/v1/apps/', imported: 3 },
])('$provider import job', ({ provider, connectStore, listPath, imported }) => {
  /** The store's review list answers 503 while `down`; returns how many list calls it saw. */
  function outage() {
    const o = { down: true, lists: 0 }
    const store = storeFake(keys, bed.state)
    bed.fake.answer = (c) => {
      if (!c.path.startsWith(listPath)) return store(c)
      o.lists++
      return o.down ? new Response('Service Unavailable', { status: 503 }) : store(c)
    }
    return o
  }

  it('retries a failed import after 1, 5, 25 and 125 minutes like every outgoing call, then waits for the next hour', async () => {
    await connectStore()
    const o = outage()
    expect(await enqueueStoreSyncs(bed.t.deps)).toBe(1)
    await bed.t.runner.drain()
    expect(o.lists).toBe(1)
    for (const [minutes, lists] of [[0.9, 1], [0.2, 2], [4.9, 2], [0.2, 3], [24.9, 3], [0.2, 4], [124.9, 4], [0.2, 5], [500, 5]] as const) {
      bed.t.clock.advance(minutes * 60_000)
      await bed.t.runner.drain()
      expect([minutes, o.lists]).toEqual([minutes, lists])
    }
    expect(await reviews()).toEqual([])

    // A later hour's import finds the store back.
    o.down = false
    await enqueueStoreSyncs(bed.t.deps)
    await bed.t.runner.drain()
    expect(await reviews()).toHaveLength(imported)
  })

  it('imports on the retry once the store answers again', async () => {
    await connectStore()
    const o = outage()
    await enqueueStoreSyncs(bed.t.deps)
    await bed.t.runner.drain()
    o.down = false
    bed.t.clock.advance(60_000)
    await bed.t.runner.drain()
    expect(await reviews()).toHaveLength(imported)
  })

  it('holds the queued import of a paused connection and runs it on resume', async () => {
    const id = await connectStore()
    const o = outage()
    await enqueueStoreSyncs(bed.t.deps)
    await bed.t.runner.drain()
    expect(o.lists).toBe(1)
    expect((await req('PATCH', `/integrations/${provider}/${id}`, { is_active: false })).status).toBe(200)
    o.down = false
    bed.t.clock.advance(300 * 60_000)
    await bed.t.runner.drain()
    expect(o.lists).toBe(1)
    expect(await reviews()).toEqual([])

    expect((await req('PATCH', `/integrations/${provider}/${id}`, { is_active: true })).body.data).toEqual({ message: 'Integration resumed' })
    // Released at once, without waiting for the next hour.
    await bed.t.runner.drain()
    expect(o.lists).toBeGreaterThan(1)
    expect(await reviews()).toHaveLength(imported)
  })
})
