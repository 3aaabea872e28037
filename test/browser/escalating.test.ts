// Issue 29, "is it getting worse?", on screen: a crash that grows (2 events yesterday, 12 in the last
// hour, sent to the Sentry store route with their own times) reads "Escalating" on the list and on
// its report page, with its hourly and daily counts and the rule; is:escalating and the "Trending"
// sort find it first; its tags show on the report page and link to a tag:key=value search.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

const TIMEOUT = 15_000
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: TIMEOUT, interval: 100 })
const HOUR = 3_600_000

describeBrowser('is it getting worse? (issue 29)', () => {
  let h: BrowserHarness
  let owner: SignedUp
  let slug = ''
  beforeAll(async () => {
    h = await startBrowser()
    h.page.setDefaultTimeout(TIMEOUT)
    owner = await h.signUp({ email: 'producer@studio.example' })
    slug = ((await h.api('POST', '/api/projects', { token: owner.token, body: { name: 'Launch Game' } })).body.data as { slug: string }).slug
    // The DSN names the key and the project's id: `http://<key>@host:port/<id>`.
    const dsn = new URL((await h.api('GET', `/api/projects/${slug}`, { token: owner.token })).body.data.dsn)
    const store = `/api${dsn.pathname}/store/?sentry_key=${dsn.username}`
    /** `n` events of the crash thrown in `fn`, dated `agoMs` ago, tagged with the map it happened on. */
    const send = async (fn: string, n: number, agoMs: number, map: string) => {
      const event = {
        level: 'fatal',
        platform: 'csharp',
        timestamp: new Date(Date.now() - agoMs).toISOString(),
        tags: { map },
        exception: { values: [{ type: 'InvalidOperationException', value: `${fn} failed`, stacktrace: { frames: [{ function: fn, filename: 'Game.cs', lineno: 3, in_app: true }] } }] },
      }
      for (let i = 0; i < n; i++) expect((await h.api('POST', store, { body: event })).status).toBe(200)
    }
    // #1 steady: one event every four hours and one in the last hour. #2 grows: two yesterday, twelve now.
    for (let hours = 4; hours <= 20; hours += 4) await send('Arena.Load', 1, hours * HOUR, 'arena')
    await send('Arena.Load', 1, 0, 'arena')
    await send('Shader.Compile', 2, 20 * HOUR, 'caves')
    await send('Shader.Compile', 12, 0, 'caves')
  }, 120_000)
  afterAll(() => h?.close())

  it('marks the growing crash "Escalating" on the list; is:escalating and the Trending sort put it first', async () => {
    await h.page.goto(`/projects/${slug}/reports`)
    const growing = h.page.locator('tr[data-report="2"]')
    await poll(() => growing.getByText('Escalating').count()).toBe(1)
    expect(await h.page.locator('tr[data-report="1"]').getByText('Escalating').count()).toBe(0)

    await h.page.goto(`/projects/${slug}/reports?q=${encodeURIComponent('is:escalating')}`)
    await poll(() => h.page.locator('tbody tr').count()).toBe(1)
    expect(await h.page.locator('tbody tr').first().getAttribute('data-report')).toBe('2')

    await h.page.goto(`/projects/${slug}/reports`)
    await h.page.getByLabel('Sort').selectOption('trending')
    await h.page.waitForURL(/sort=trending/)
    await poll(() => h.page.locator('tbody tr').first().getAttribute('data-report')).toBe('2')
    // The sparkline choice: events per hour over 24 hours, the column says so.
    await h.page.getByLabel('Trend').selectOption('24h')
    await h.page.waitForURL(/spark=24h/)
    await poll(() => h.page.locator('tr[data-report="2"] .sparkline').getAttribute('aria-label')).toMatch(/^14 events in 24 hours/)
  })

  it("answers on the report page: the last hour against the day before, per hour and per day, and the rule; the tags link to their search", async () => {
    await h.page.goto(`/projects/${slug}/reports/2`)
    const trend = h.page.getByRole('region', { name: 'Is it getting worse?' })
    await poll(() => trend.textContent()).toContain('12 events in the last hour, against 0.08 an hour over the 24 hours before.')
    expect(await trend.getByText('Escalating', { exact: true }).count()).toBe(1)
    expect(await trend.locator('svg[aria-label^="14 events in 24 hours"]').count()).toBe(1)
    expect(await trend.locator('svg[aria-label^="14 events in 30 days"]').count()).toBe(1)
    expect(await trend.textContent()).toContain('more than 3 times')
    await h.screenshot('report-escalating')

    await h.page.goto(`/projects/${slug}/reports/1`)
    await poll(() => h.page.getByRole('region', { name: 'Is it getting worse?' }).textContent()).toContain('Not escalating')

    const tags = h.page.getByRole('region', { name: 'Tags' })
    await poll(() => tags.textContent()).toContain('map')
    await tags.getByRole('link', { name: 'arena' }).click()
    await h.page.waitForURL(/q=tag%3Amap%3Darena/)
    await poll(() => h.page.locator('tbody tr').count()).toBe(1)
    expect(await h.page.locator('tbody tr').first().getAttribute('data-report')).toBe('1')
  })
})
