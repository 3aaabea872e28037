// Issue 29, items 1 and 5, on the Sentry store route: where an event ran (the player's OS, the
// runtime, a web game's browser, the environment) is kept per occurrence and filters the list, and
// split and merge move those filters with the occurrences they came from.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../helpers/test-app'
import { CAPTURE_KEY, capturedProject, post } from './sentry-routes-helpers'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'
const frame = (fn: string) => ({ stacktrace: { frames: [{ function: fn, filename: 'Arena.cs', lineno: 12, in_app: true }] } })
/** A Unity game's event: Mono on the player's Windows. */
const unityEvent = (environment: string, fn = 'Arena.Load') => ({
  level: 'error',
  platform: 'csharp',
  environment,
  contexts: { os: { name: 'Windows', version: '10.0.19045' }, runtime: { name: 'Mono', version: '6.12.0' } },
  exception: { values: [{ type: 'NullReferenceException', value: 'boss is null', ...frame(fn) }] },
})
/** The same game's web build: the browser SDK sends only its user agent. */
const webEvent = (environment: string) => ({
  level: 'error',
  platform: 'javascript',
  environment,
  request: { url: 'https://game.example/play', headers: { 'User-Agent': FIREFOX } },
  exception: { values: [{ type: 'TypeError', value: 'sprite is undefined', ...frame('drawSprite') }] },
})

let t: TestApp
let ctx: Awaited<ReturnType<typeof capturedProject>>
beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0', GLITCHBOX_RATE_LIMIT_GLOBAL: '0' } })
  ctx = await capturedProject(t)
})
afterEach(() => t.close())

const store = async (event: object) => expect((await post(t, `/api/42/store/?sentry_key=${CAPTURE_KEY}`, JSON.stringify(event))).status).toBe(200)
const base = () => `/api/projects/${ctx.project.slug}/bugs`
/** The numbers the list shows for `q` (newest first). */
const numbers = async (q: string) => {
  const res = await t.request('GET', `${base()}?q=${encodeURIComponent(q)}`, { token: ctx.owner.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return (res.body.data.bugs as { report_number: number }[]).map((b) => b.report_number)
}

describe('where a Sentry event ran', () => {
  it("stores the OS as the platform, the runtime and the browser apart, and the environment; each filters the list", async () => {
    await store(unityEvent('production'))
    await store(webEvent('staging'))
    expect(await numbers('platform:Windows')).toEqual([1])
    expect(await numbers('platform:Linux')).toEqual([2])
    expect(await numbers('platform:csharp')).toEqual([])
    expect(await numbers('platform:javascript')).toEqual([])
    expect(await numbers('runtime:mono')).toEqual([1])
    expect(await numbers('browser:Firefox')).toEqual([2])
    expect(await numbers('environment:production')).toEqual([1])
    expect(await numbers('environment:staging browser:firefox')).toEqual([2])
    expect(await numbers('environment:qa')).toEqual([])
    const web = (await t.request('GET', `${base()}/2/occurrences`, { token: ctx.owner.token })).body.data.occurrences[0]
    expect(web).toMatchObject({ platform: 'Linux', os_info: 'Linux', runtime: '', browser: 'Firefox 133.0', environment: 'staging' })
    const unity = (await t.request('GET', `${base()}/1/occurrences`, { token: ctx.owner.token })).body.data.occurrences[0]
    expect(unity).toMatchObject({ platform: 'Windows', os_info: 'Windows 10.0.19045', runtime: 'Mono 6.12.0', browser: '', environment: 'production' })
  })

  it('refuses a negated environment filter with a 400 that names it, and changes nothing', async () => {
    await store(unityEvent('production'))
    const res = await t.request('GET', `${base()}?q=${encodeURIComponent('-environment:staging')}`, { token: ctx.owner.token })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('-environment:staging')
  })

  it('moves the environment filter with the occurrences a split takes out, and a merge brings it back', async () => {
    await store(unityEvent('production'))
    await store(unityEvent('staging'))
    expect(await numbers('environment:staging')).toEqual([1])
    const occurrences = (await t.request('GET', `${base()}/1/occurrences`, { token: ctx.owner.token })).body.data.occurrences as { id: string; environment: string }[]
    const staging = occurrences.find((o) => o.environment === 'staging')!
    expect((await t.request('POST', `${base()}/1/split`, { token: ctx.owner.token, body: { occurrence_ids: [staging.id] } })).status).toBe(201)
    expect(await numbers('environment:staging')).toEqual([2])
    expect(await numbers('environment:production')).toEqual([1])
    expect(await numbers('runtime:Mono')).toEqual([2, 1])
    expect((await t.request('POST', `${base()}/1/merge`, { token: ctx.owner.token, body: { numbers: [2] } })).status).toBe(200)
    expect(await numbers('environment:staging')).toEqual([1])
    expect(await numbers('environment:production')).toEqual([1])
  })
})

describe('release health and the bad-deploy verdict per environment (issue 29, item 5)', () => {
  /** One `sessions` envelope item as a server-mode SDK sends it: `exited` clean and `crashed` crashed sessions. */
  const sessions = async (release: string, environment: string | null, exited: number, crashed: number) => {
    const attrs = environment === null ? { release } : { release, environment }
    const body = ['{}', '{"type":"sessions"}', JSON.stringify({ aggregates: [{ started: t.clock.now().toISOString(), exited, crashed }], attrs })].join('\n')
    expect((await post(t, `/api/42/envelope/?sentry_key=${CAPTURE_KEY}`, body)).status).toBe(200)
  }
  const get = async (path: string) => {
    const res = await t.request('GET', `/api/projects/${ctx.project.slug}${path}`, { token: ctx.owner.token })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.data
  }
  type Version = { version: string; sessions: number; crashed_sessions: number; crash_free_rate: number | null }
  const health = async (query: string) => Object.fromEntries(((await get(`/release-health${query}`)).versions as Version[]).map((v) => [v.version, [v.sessions, v.crashed_sessions]]))

  it('counts only the chosen environment, production taking the sessions that name none, and every one without a choice', async () => {
    await sessions('1.3.0', 'production', 40, 2)
    await sessions('1.3.1', 'production', 38, 2)
    await sessions('1.3.1', null, 10, 0)
    // The staging build of 1.3.1 and the web demo crash a lot: they must not make production's 1.3.1 look worse.
    await sessions('1.3.1', 'staging', 10, 30)
    await sessions('1.3.1', 'web-demo', 2, 11)
    expect(await health('?environment=production')).toEqual({ '1.3.1': [50, 2], '1.3.0': [42, 2] })
    expect(await health('?environment=staging')).toEqual({ '1.3.1': [40, 30] })
    expect(await health('')).toEqual({ '1.3.1': [103, 43], '1.3.0': [42, 2] })
    expect((await get('/release-health?environment=production')).environment).toBe('production')
    expect(await get('/release-health/version?version=1.3.1&days=7&environment=production')).toMatchObject({ environment: 'production', sessions: 50, crashed_sessions: 2 })

    const production = await get('/bad-deploy?environment=production')
    expect(production).toMatchObject({ environment: 'production', verdict: 'no_difference', current: { version: '1.3.1', sessions: 50, crashed: 2 }, previous: { version: '1.3.0', sessions: 42 } })
    // Every environment mixed together: staging's crashes read as a bad deploy of 1.3.1.
    expect(await get('/bad-deploy')).toMatchObject({ environment: null, verdict: 'worse' })
  })
})
