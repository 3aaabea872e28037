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
