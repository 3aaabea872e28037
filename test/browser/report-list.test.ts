import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedLaunchDay } from '../helpers/launch-day'
import { join } from 'node:path'
import { type BrowserHarness, describeBrowser, SCREENSHOT_DIR, type SignedUp, startBrowser } from './harness'

/**
 * The report list of issue 24 as a studio reads it on launch day: 5,000 submissions from 500 players
 * over three versions (24 crashes, some hitting hundreds of players) sent to the real server, then
 * the list's columns, sorts, filter bar, search syntax and bulk actions by filter driven in Chromium.
 */
describeBrowser('the report list on launch day', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  const call = (method: string, path: string, body?: unknown) => h.api(method, path, { token: me.token, body })
  type Item = { report_number: number; title: string; player_count: number; priority: string; first_version: string; last_version: string }
  const list = async (query: string) => (await call('GET', `/api/projects/${slug}/bugs?${query}`)).body.data as { bugs: Item[]; total: number }
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 })
  const rows = () => h.page.locator('.report-table tbody tr')
  const numbersShown = async () => (await rows().evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-report')))))
  const searchFor = async (text: string) => {
    await h.page.getByRole('searchbox', { name: 'Search reports' }).fill(text)
    await h.page.keyboard.press('Enter')
  }

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Lena Launch' })
    const project = await call('POST', '/api/projects', { name: 'Starfall' })
    expect(project.status).toBe(201)
    slug = project.body.data.slug
    const apiKey = project.body.data.api_key
    const sent = await seedLaunchDay({
      submit: async (body) => {
        const res = await h.api('POST', '/api/bugs/submit', { apiKey, body })
        if (res.status >= 300) throw new Error(`submit answered ${res.status}: ${JSON.stringify(res.body)}`)
      },
    })
    expect(sent.submissions).toBe(5000)
  }, 600_000)
  afterAll(() => h?.close())

  it('shows events, players, a 14-day trend, last seen and versions per row; sorts by players', async () => {
    await h.page.goto(`/projects/${slug}/reports?sort=players`)
    await poll(() => rows().count()).toBe(25)
    const top = (await list('sort=players')).bugs[0]!
    expect(top.player_count).toBeGreaterThan(100)
    const first = rows().first()
    expect(Number(await first.getAttribute('data-report'))).toBe(top.report_number)
    const cells = await first.locator('td').allTextContents()
    // #, title, events, players, trend, last seen, versions, status, priority, assignee, votes (after the checkbox).
    expect(cells[4]).toBe(String(top.player_count))
    expect(cells[6]).toMatch(/^(just now|\d+ min ago)$/)
    expect(top.first_version).toBe('1.2.0')
    expect(cells[7]).toBe(`1.2.0 → ${top.last_version}`)
    expect(await first.locator('time').getAttribute('title')).toBeTruthy()
    const trend = await first.getByRole('img').getAttribute('aria-label')
    expect(trend).toMatch(new RegExp(`^${cells[3]!.replace(/,/g, '')} events in 14 days, \\d+ today; per day: (0, ){13}\\d+$`))
    // Sorted by players, most first.
    const players = await rows().evaluateAll((trs) => trs.map((tr) => Number(tr.querySelectorAll('td')[4]!.textContent!.replace(/,/g, ''))))
    expect(players).toEqual([...players].sort((a, b) => b - a))
    await h.screenshot('report-list-launch-day')
    // The README's picture: one screen of the busiest crashes of the beta build.
    await h.page.goto(`/projects/${slug}/reports?version=1.3.0-beta&sort=players`)
    await poll(numbersShown).toEqual((await list('version=1.3.0-beta&sort=players')).bugs.map((b) => b.report_number))
    await h.page.screenshot({ path: join(SCREENSHOT_DIR, 'report-list-launch-day-readme.png') })
  })

  it('filters from the bar and from the search box: chips show each filter and remove it', async () => {
    await h.page.goto(`/projects/${slug}/reports`)
    await poll(() => rows().count()).toBe(25)
    await h.page.locator('.filter-menu summary').click()
    const version = h.page.getByLabel('Game version', { exact: true })
    await poll(async () => (await version.locator('option').allTextContents()).slice(1)).toEqual(['1.3.0', '1.3.0-beta', '1.2.0'])
    await version.selectOption('1.3.0-beta')
    await h.page.getByLabel('Platform', { exact: true }).selectOption('Linux')
    await h.page.keyboard.press('Escape')
    await poll(() => new URL(h.page.url()).search).toBe('?version=1.3.0-beta&platform=Linux')
    const chips = h.page.getByRole('list', { name: 'Active filters' })
    await poll(() => chips.getByRole('listitem').allTextContents()).toEqual(['Version: 1.3.0-beta×', 'Platform: Linux×', 'Clear filters'])
    await poll(numbersShown).toEqual((await list('version=1.3.0-beta&platform=Linux')).bugs.map((b) => b.report_number))

    await searchFor('is:unassigned error:NullReferenceException has:screenshot')
    await poll(() => new URL(h.page.url()).searchParams.get('q')).toBe('is:unassigned error:NullReferenceException has:screenshot')
    // No launch-day submission carries a screenshot: nothing matches, and the page says so.
    await poll(() => h.page.getByText('No report matches').count()).toBe(1)
    await searchFor('is:unassigned error:NullReferenceException')
    const expected = (await list(`version=1.3.0-beta&platform=Linux&q=${encodeURIComponent('is:unassigned error:NullReferenceException')}`)).bugs
    expect(expected.length).toBeGreaterThan(0)
    expect(expected.every((b) => b.title.includes('NullReferenceException'))).toBe(true)
    await poll(numbersShown).toEqual(expected.map((b) => b.report_number))
    await h.screenshot('report-list-launch-day-filters')

    await chips.getByRole('button', { name: 'Remove filter Platform: Linux' }).click()
    await poll(() => new URL(h.page.url()).searchParams.get('platform')).toBe(null)
    expect(new URL(h.page.url()).searchParams.get('version')).toBe('1.3.0-beta')
    await poll(numbersShown).toEqual((await list(`version=1.3.0-beta&q=${encodeURIComponent('is:unassigned error:NullReferenceException')}`)).bugs.map((b) => b.report_number))

    // A filter the server refuses is explained, not a blank page.
    await searchFor('is:everything')
    await poll(() => h.page.getByText('is:everything is not a filter', { exact: false }).count()).toBeGreaterThan(0)
  })

  it('documents the filters in the search-syntax popover', async () => {
    await h.page.goto(`/projects/${slug}/reports`)
    await h.page.getByText('Search syntax', { exact: true }).click()
    const help = h.page.getByRole('note', { name: 'Search syntax' })
    await help.waitFor() // the popover renders after the click; count() does not wait for it
    for (const term of ['version:1.3.0', 'platform:Linux', 'player:76561198…', 'error:NullReferenceException', 'is:unassigned', 'is:regression', 'has:screenshot']) {
      expect(await help.getByText(term, { exact: true }).count()).toBe(1)
    }
    await h.screenshot('report-list-launch-day-search-help')
  })

  it('"Select all N matching" sets the priority of every report from a version and platform, past the page', async () => {
    const q = 'version:1.2.0 platform:Linux'
    const before = await list(`q=${encodeURIComponent(q)}`)
    expect(before.total).toBeGreaterThan(25)
    await h.page.goto(`/projects/${slug}/reports?q=${encodeURIComponent(q)}`)
    await poll(() => rows().count()).toBe(25)
    await h.page.getByLabel('Select all reports on this page').check()
    await h.page.getByRole('button', { name: `Select all ${before.total} matching` }).click()
    const bar = h.page.getByRole('region', { name: 'Bulk actions' })
    await poll(() => bar.getByRole('status').textContent()).toBe(`All ${before.total} reports matching`)
    await bar.getByLabel('Set priority').selectOption('critical')
    await bar.getByRole('button', { name: `Apply to all ${before.total} reports` }).click()
    await poll(async () => (await list(`q=${encodeURIComponent(q)}&priority=critical`)).total).toBe(before.total)
    await h.screenshot('report-list-launch-day-bulk')
  })

  it('merges selected reports into the one chosen to keep', async () => {
    const q = 'error:IndexOutOfRangeException'
    const before = (await list(`q=${encodeURIComponent(q)}&sort=occurrences`)).bugs.slice(0, 3)
    await h.page.goto(`/projects/${slug}/reports?q=${encodeURIComponent(q)}&sort=occurrences`)
    await poll(numbersShown).toEqual((await list(`q=${encodeURIComponent(q)}&sort=occurrences`)).bugs.map((b) => b.report_number))
    for (const b of before) await h.page.getByLabel(`Select report #${b.report_number}`).check()
    await h.page.getByRole('button', { name: 'Merge…' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Merge 3 reports into one?' })
    await dialog.getByLabel('Keep').selectOption(String(before[1]!.report_number))
    await dialog.getByRole('button', { name: 'Merge', exact: true }).click()
    // A merged number answers 308 to the report kept (fetch follows it).
    const readAs = async (n: number) => (await call('GET', `/api/projects/${slug}/bugs/${n}`)).body.data.bug.report_number
    await poll(() => readAs(before[0]!.report_number)).toBe(before[1]!.report_number)
    expect(await readAs(before[2]!.report_number)).toBe(before[1]!.report_number)
    await poll(() => h.page.getByRole('status').filter({ hasText: 'merged into' }).textContent()).toContain(`2 reports merged into #${before[1]!.report_number}`)
    // The kept report was listed before the merge too, so wait for the list to drop the merged ones.
    const merged = (shown: number[]) => shown.filter((n) => n === before[0]!.report_number || n === before[2]!.report_number)
    await poll(async () => merged(await numbersShown())).toEqual([])
    expect(await numbersShown()).toContain(before[1]!.report_number)
  })

  it('deletes every report a filter selects, after a confirmation', async () => {
    const filter = 'q=' + encodeURIComponent('platform:macOS version:1.3.0-beta')
    const before = await list(filter)
    expect(before.total).toBeGreaterThan(25)
    await h.page.goto(`/projects/${slug}/reports?${filter}`)
    await poll(() => rows().count()).toBe(25)
    await h.page.getByLabel('Select all reports on this page').check()
    await h.page.getByRole('button', { name: `Select all ${before.total} matching` }).click()
    await h.page.getByRole('button', { name: `Delete all ${before.total} reports` }).click()
    await h.page.getByRole('dialog', { name: `Delete ${before.total} reports?` }).getByRole('button', { name: 'Delete' }).click()
    await poll(async () => (await list(filter)).total).toBe(0)
    await poll(() => h.page.getByText('No report matches').count()).toBe(1)
  })
})
