// The smaller defects of issue 29's launch-day walk, in the browser: a new server opens on Sign up,
// the setup page is reachable from the settings and says when the DSN names localhost, the grouping
// help says what grouping is, the activity log speaks words, the merge keeps the report with the
// most events, a filter-wide bulk action leaves no "Delete all 0 reports", the bulk bar puts a label
// on the checked reports, the Attachments box shows every occurrence's screenshot, a project's
// analytics overview counts that project alone, and an unknown search filter is named. The server
// runs without GLITCHBOX_PUBLIC_URL, as a first install does.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { pngDataUrl } from '../sdk/sdk-helpers'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

const TIMEOUT = 15_000
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: TIMEOUT, interval: 100 })

describeBrowser('launch-day fixes in the dashboard (issue 29)', () => {
  let h: BrowserHarness
  let owner: SignedUp
  beforeAll(async () => {
    h = await startBrowser({ env: { GLITCHBOX_PUBLIC_URL: '' } })
    h.page.setDefaultTimeout(TIMEOUT)
  })
  afterAll(() => h?.close())

  /** A new project of the owner (signed up by the first test, or here when it could not): its slug and SDK key. */
  const project = async (name: string) => {
    owner ??= await h.signUp({ email: 'owner@studio.example' })
    return (await h.api('POST', '/api/projects', { token: owner.token, body: { name } })).body.data as { slug: string; api_key: string }
  }
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: owner.token, body })

  it('opens Sign up on a server nobody has signed up on yet, and Sign in once someone has', async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`${h.baseUrl}/`)
    await page.waitForURL((u) => u.pathname === '/signup')
    await poll(() => page.getByRole('heading', { name: 'Create your account' }).count()).toBe(1)

    await project('First Game')
    const later = await (await h.newContext()).newPage()
    await later.goto(`${h.baseUrl}/`)
    await later.waitForURL((u) => u.pathname === '/login')
  })

  it('links the setup page from the settings; without GLITCHBOX_PUBLIC_URL the page says the DSN uses localhost and what to set', async () => {
    const { slug } = await project('Setup Game')
    await h.page.goto(`/projects/${slug}/settings/general`)
    // The grouping help says what grouping is, not "the same title".
    const grouping = h.page.locator('label', { hasText: 'Group duplicate reports' }).locator('..')
    await poll(() => grouping.textContent()).toContain('top in-app frame')
    expect(await h.page.textContent('main')).not.toContain('with the same title as an open one')

    await h.page.getByRole('link', { name: 'SDK setup page' }).click()
    await h.page.waitForURL(`**/projects/${slug}/setup`)
    const port = new URL(h.baseUrl).port
    const notice = h.page.getByRole('note').filter({ hasText: 'GLITCHBOX_PUBLIC_URL' })
    await poll(() => notice.textContent()).toContain(`http://localhost:${port}`)
    expect(await notice.textContent()).toMatch(/Set GLITCHBOX_PUBLIC_URL to the address/)
  })

  it('shows publication and roadmap changes in words in the activity log', async () => {
    const { slug } = await project('Activity Game')
    expect((await call('POST', `/api/projects/${slug}/bugs`, { title: 'Lift stuck on floor 2', description: 'It never arrives.' })).status).toBe(201)
    expect((await call('PATCH', `/api/projects/${slug}/bugs/1`, { on_roadmap: true })).status).toBe(200)
    await h.page.goto(`/projects/${slug}/reports/1`)
    const timeline = h.page.locator('.timeline')
    await poll(() => timeline.textContent()).toContain('put it on the roadmap')
    expect(await timeline.textContent()).not.toMatch(/on_roadmap|changed roadmap from/)
  })

  it('keeps by default the report with the most events, the oldest of those that tie', async () => {
    const { slug, api_key } = await project('Merge Game')
    // #1 one event, #2 and #3 three each, #4 (the newest, first in the list) one.
    const events = [1, 3, 3, 1]
    for (const [i, n] of events.entries()) {
      for (let k = 0; k < n; k++) expect((await h.api('POST', '/api/bugs/submit', { apiKey: api_key, body: { title: `Door ${i + 1} will not open`, description: 'Stuck.' } })).status).toBeLessThan(300)
    }
    await h.page.goto(`/projects/${slug}/reports`)
    for (const n of [1, 2, 3, 4]) await h.page.getByLabel(`Select report #${n}`).check()
    await h.page.getByRole('button', { name: 'Merge…' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Merge 4 reports into one?' })
    expect(await dialog.getByLabel('Keep').inputValue()).toBe('2')
  })

  it('ends a filter-wide selection with its bulk action: no "Delete all 0 reports" left enabled', async () => {
    const { slug } = await project('Bulk Game')
    for (let i = 0; i < 27; i++) await call('POST', `/api/projects/${slug}/bugs`, { title: `Typo number ${i} in the credits`, description: 'A typo.' })
    await h.page.goto(`/projects/${slug}/reports?status=open`)
    await h.page.getByLabel('Select all reports on this page').check()
    await h.page.getByRole('button', { name: 'Select all 27 matching' }).click()
    const bar = h.page.getByRole('region', { name: 'Bulk actions' })
    await bar.getByLabel('Set status').selectOption('resolved')
    await bar.getByRole('button', { name: 'Apply to all 27 reports' }).click()
    // No open report is left: the list is empty and nothing stays selected.
    await poll(() => h.page.getByText('No report matches').count()).toBe(1)
    expect(await bar.count()).toBe(0)
    expect(await h.page.getByRole('button', { name: /Delete all 0 reports/ }).count()).toBe(0)
  })

  it('puts a label on the checked reports from the bulk bar', async () => {
    const { slug } = await project('Label Game')
    for (const title of ['Sword clips through walls', 'Shield floats', 'Bow never fires']) await call('POST', `/api/projects/${slug}/bugs`, { title, description: 'Seen.' })
    await call('POST', `/api/projects/${slug}/labels`, { name: 'combat' })
    await h.page.goto(`/projects/${slug}/reports`)
    for (const n of [1, 3]) await h.page.getByLabel(`Select report #${n}`).check()
    const bar = h.page.getByRole('region', { name: 'Bulk actions' })
    await poll(() => bar.getByLabel('Add label').locator('option', { hasText: 'combat' }).count()).toBe(1)
    await bar.getByLabel('Add label').selectOption({ label: 'combat' })
    await bar.getByRole('button', { name: 'Apply to 2 selected' }).click()
    await poll(() => h.page.getByText('2 reports updated').count()).toBe(1)
    const labelsOf = async (n: number) => ((await call('GET', `/api/projects/${slug}/bugs/${n}`)).body.data.bug.labels as { name: string }[]).map((l) => l.name)
    expect([await labelsOf(1), await labelsOf(2), await labelsOf(3)]).toEqual([['combat'], [], ['combat']])
  })

  it("counts only the project's own reports on its analytics overview", async () => {
    const mine = await project('Overview Game')
    const other = await project('Other Game')
    await call('POST', `/api/projects/${mine.slug}/bugs`, { title: 'Map does not load', description: 'Blank.' })
    for (let i = 0; i < 4; i++) await call('POST', `/api/projects/${other.slug}/bugs`, { title: `Other crash ${i}`, description: 'Elsewhere.' })
    await h.page.goto(`/projects/${mine.slug}/analytics`)
    const trends = h.page.getByRole('region', { name: 'Reports' })
    await poll(() => trends.textContent()).toMatch(/1 filed and 0 resolved in 30 days/)
    expect(await h.page.getByRole('region', { name: 'All projects' }).count()).toBe(0)
  })

  it("lists every occurrence's screenshot in the Attachments box and marks the occurrences that sent one", async () => {
    const { slug, api_key } = await project('Screenshot Game')
    const sent = [
      { game_version: '1.0', reporter_name: 'Ann', screenshot: pngDataUrl() },
      { game_version: '1.1', reporter_name: 'Bob' },
      { game_version: '1.2', reporter_name: 'Cid', screenshot: pngDataUrl() },
    ]
    for (const extra of sent) expect((await h.api('POST', '/api/bugs/submit', { apiKey: api_key, body: { title: 'Sky turns green', description: 'Green.', ...extra } })).status).toBeLessThan(300)
    await h.page.goto(`/projects/${slug}/reports/1`)
    const box = h.page.getByRole('region', { name: 'Attachments' })
    await poll(() => box.getByRole('img').count()).toBe(2)
    expect(await box.textContent()).toContain('Screenshots (2)')
    expect(await box.textContent()).not.toContain('No attachments')
    expect((await box.locator('figcaption').allTextContents()).map((c) => c.split(' · ').slice(1))).toEqual([
      ['1.2', 'Cid'],
      ['1.0', 'Ann'],
    ])
    const rows = h.page.getByRole('table', { name: 'Occurrences, newest first' }).locator('tbody tr')
    await poll(() => rows.count()).toBe(3)
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent!.includes('Screenshot')))).toEqual([true, false, true])
  })

  it('names an unknown filter in the search instead of searching it as text', async () => {
    const { slug } = await project('Search Game')
    await call('POST', `/api/projects/${slug}/bugs`, { title: 'foo bar baz', description: 'Words.' })
    await h.page.goto(`/projects/${slug}/reports?q=${encodeURIComponent('crash foo:bar')}`)
    await poll(() => h.page.getByText('unknown filter `foo:`').count()).toBe(1)
    expect(await h.page.getByText('The search was not understood').count()).toBe(1)
  })
})
