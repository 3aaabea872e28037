// Analytics a person can read (issue 24), against the real server with a launch day sent through the
// SDK routes: the verdict in words first, one bar per release in version order, one quantity per
// chart, crash groups keyed like the report list and linking to their reports, numbers fresh within
// seconds and saying so, readable at a phone's width, and no plan or tier name on a server without billing.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seedLaunchDay } from '../helpers/launch-day'
import { until } from '../helpers/until'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('analytics with a launch day, in a browser', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  let apiKey: string
  const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout })
  const get = async (path: string) => {
    const res = await h.api('GET', `/api/projects/${slug}${path}`, { token: me.token })
    expect(res.status, path).toBe(200)
    return res.body.data
  }
  const text = async (selector: string) => ((await h.page.locator(selector).first().textContent()) ?? '').replace(/\s+/g, ' ').trim()

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Pia Producer' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Star Rally' } })
    expect(project.status).toBe(201)
    ;({ slug, api_key: apiKey } = project.body.data)
    const ok = (r: { status: number }) => expect(r.status).toBeLessThan(300)
    await seedLaunchDay({
      submit: async (body) => ok(await h.api('POST', '/api/bugs/submit', { apiKey, body })),
      session: async (start, crashed) => {
        ok(await h.api('POST', '/api/sessions/start', { body: { api_key: apiKey, ...start } }))
        ok(await h.api('POST', '/api/sessions/end', { body: { api_key: apiKey, session_token: start.session_token, crashed } }))
      },
    })
    // Each analytics read counts at most 2,000 of the 5,000 submissions not counted yet: a few reads
    // catch up. A read that finds the per-minute rollup job counting answers as it is, so wait on time, not on a number of reads.
    let counted = 0
    await until('the analytics to count all 5,000 submissions', async () => (counted = (await get('/crash-analytics')).totals.events) === 5_000, { ms: 60_000, everyMs: 250 })
    expect(counted).toBe(5_000)
  }, 240_000)
  afterAll(() => h?.close())

  it('says the verdict in words first, the statistics on demand, and shows one bar per release in version order', async () => {
    const verdict = await get('/bad-deploy')
    const health = await get('/release-health')
    expect(health.versions.map((v: any) => v.version)).toEqual(['1.3.0', '1.3.0-beta', '1.2.0'])
    await h.page.goto(`/projects/${slug}/analytics/releases`)

    // The sentence a producer reads first: which build, more or less, both rates, and how sure.
    const summary = h.page.locator('.verdict-summary')
    await poll(() => summary.count()).toBe(1)
    const words: Record<string, string> = { worse: 'worse', better: 'better', no_difference: 'no difference', not_enough_data: 'not enough data' }
    expect(await text('.verdict-summary')).toBe(`${words[verdict.verdict]} ${verdict.summary}`)
    expect(verdict.summary).toMatch(/^1\.3\.0 crashes less than 1\.3\.0-beta: \d+\.\d% vs \d+\.\d% crash-free sessions, a real difference, not chance \(p (< 0\.001|= 0\.\d+)\)$/)
    // The statistics wait behind a disclosure; states read as words.
    const stats = h.page.getByText('How this was decided')
    expect(await h.page.getByText(/z = /).isVisible()).toBe(false)
    await stats.click()
    await poll(() => h.page.getByText(/z = -?\d/).isVisible()).toBe(true)
    expect(await h.page.locator('main').textContent()).not.toMatch(/\w_\w*data|no_difference/)

    // One bar per release, newest first as the table, each chart one quantity.
    for (const [title, value] of [
      ['Crash-free sessions by version', (v: any) => `${(v.crash_free_rate * 100).toFixed(1)}%`],
      ['Sessions by version', (v: any) => v.sessions.toLocaleString('en')],
    ] as const) {
      const chart = h.page.locator('figure.bar-chart').filter({ has: h.page.getByText(title, { exact: true }) })
      const rows = (await chart.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim())
      expect(rows, title).toEqual(health.versions.map((v: any) => `${v.version} ${value(v)}`))
    }
    // The table beside them: events and players per version.
    const table = h.page.getByRole('table', { name: 'Release health per version' })
    const first = (await table.locator('tbody tr').first().textContent())!.replace(/\s+/g, ' ')
    expect(first).toContain(health.versions[0].events.toLocaleString('en'))
    expect(first).toContain(health.versions[0].players.toLocaleString('en'))
    expect(await h.page.locator('.freshness').textContent()).toMatch(/Updated (just now|\d+ s ago)/)
    await h.screenshot('release-health')
  })

  it('shows a version with its events and players, its days on two charts, and its crash groups linking to their reports by the list’s fingerprint', async () => {
    const beta = await get('/release-health/version?version=1.3.0-beta')
    await h.page.goto(`/projects/${slug}/analytics/releases`)
    await h.page.getByLabel('Version details').selectOption('1.3.0-beta')
    await poll(() => h.page.locator('.version-summary').count()).toBe(1)
    const line = await text('.version-summary')
    expect(line).toContain(`${beta.events.toLocaleString('en')} events from ${beta.players.toLocaleString('en')} players`)
    expect(await h.page.locator('figure.chart figcaption').allTextContents()).toEqual(['Crash-free sessions per day in 1.3.0-beta (%)', 'Sessions per day in 1.3.0-beta'])

    const groups = h.page.getByRole('table', { name: 'Top crash groups in 1.3.0-beta' })
    await poll(() => groups.locator('tbody tr').count()).toBe(beta.top_crash_groups.length)
    const top = beta.top_crash_groups[0]
    const row = groups.locator('tbody tr').first()
    expect((await row.textContent())!.replace(/\s+/g, ' ')).toContain(`${top.events_in_version.toLocaleString('en')}${top.players_in_version.toLocaleString('en')}`)
    expect(await row.getByRole('link', { name: `all its reports grouped as ${top.grouped_by}` }).getAttribute('href')).toBe(`/projects/${slug}/reports?q=${encodeURIComponent(`fingerprint:${top.fingerprint}`)}`)
    // The crash's link opens its report, whose grouping key is the group's.
    await row.getByRole('link', { name: top.grouped_by, exact: true }).click()
    await poll(() => new URL(h.page.url()).pathname).toBe(`/projects/${slug}/reports/${top.sample_report_number}`)
    const report = (await get(`/bugs/${top.sample_report_number}`)).bug
    expect([report.fingerprint, report.grouping_label]).toEqual([top.fingerprint, top.grouped_by])
  })

  it('lists crash groups with events and players, filtered by version, fresh within seconds of a new crash', async () => {
    const all = await get('/crash-groups?limit=100')
    expect(all.length).toBe(24)
    await h.page.goto(`/projects/${slug}/analytics/crashes`)
    const table = h.page.getByRole('table', { name: 'Crash groups' })
    await poll(() => table.locator('tbody tr').count()).toBe(24)
    const first = (await table.locator('tbody tr').first().textContent())!.replace(/\s+/g, ' ')
    expect(first).toContain(all[0].grouped_by)
    expect(first).toContain(`${all[0].events.toLocaleString('en')}${all[0].players.toLocaleString('en')}`)
    await h.screenshot('crash-groups')

    // A crash nobody has seen before: the next read counts it, seconds after it was sent, not a minute.
    const sent = Date.now()
    const crash = await h.api('POST', '/api/bugs/submit', {
      apiKey,
      body: { title: '[Error] DivideByZeroException: Attempted to divide by zero.', description: 'DivideByZeroException\n\n--- Stack Trace ---\n  at ScoreBoard.Average () [0x00012] in Assets/Scripts/ScoreBoard.cs:88\n', category: 'crash', game_version: '1.3.0', platform: 'Windows', steam_id: '76561198999999999' },
    })
    expect(crash.status).toBeLessThan(300)
    await h.page.getByRole('button', { name: 'Refresh' }).click()
    const fresh = table.locator('tbody tr', { hasText: 'DivideByZeroException at ScoreBoard.Average (ScoreBoard.cs)' })
    await poll(() => fresh.count(), 5_000).toBe(1)
    expect(Date.now() - sent).toBeLessThan(5_000)
    // Events 1, players 1, first and last seen just now.
    expect((await fresh.textContent())!.replace(/\s+/g, ' ')).toMatch(/#\d+ · all its reports grouped as DivideByZeroException at ScoreBoard\.Average \(ScoreBoard\.cs\)11(just now|\d+ s ago)(just now|\d+ s ago)/)

    await h.page.getByLabel('Version').selectOption('1.2.0')
    await poll(() => h.page.getByRole('table', { name: 'Crash groups in 1.2.0' }).count()).toBe(1)
    expect(await h.page.getByRole('columnheader', { name: 'Players in 1.2.0' }).count()).toBe(1)
    expect(new URL(h.page.url()).searchParams.get('version')).toBe('1.2.0')
  })

  it('keeps one quantity per chart on the overview', async () => {
    await h.page.goto(`/projects/${slug}/analytics`)
    await poll(() => h.page.locator('figure.chart').count()).toBe(4)
    expect(await h.page.locator('figure.chart figcaption').allTextContents()).toEqual([
      'Crash-free sessions per day (%)',
      'Sessions per day',
      'Reports filed and resolved per day',
      'Submissions received per day',
    ])
    await poll(() => h.page.locator('.verdict-summary').count()).toBe(1)
  })

  it('reads on a phone: no sideways scrolling, bar labels and values at 12 px or more, charts within the screen', async () => {
    const phone = await h.newContext()
    await phone.addCookies((await h.context.cookies()).map((c) => ({ ...c })))
    const page = await phone.newPage()
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`/projects/${slug}/analytics/releases?version=1.3.0-beta`)
    await expect.poll(() => page.locator('figure.bar-chart tbody tr').count(), { timeout: 15_000 }).toBe(6)
    await expect.poll(() => page.locator('figure.chart canvas').count(), { timeout: 15_000 }).toBe(2)
    const layout = await page.evaluate(() => {
      const cells = [...document.querySelectorAll('figure.bar-chart th[scope=row], figure.bar-chart .bar-value')].map((e) => ({ font: parseFloat(getComputedStyle(e).fontSize), right: e.getBoundingClientRect().right }))
      const canvases = [...document.querySelectorAll('figure.chart canvas')].map((c) => c.getBoundingClientRect().width)
      return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, cells, canvases }
    })
    expect(layout.scroll).toBeLessThanOrEqual(layout.width)
    for (const c of layout.cells) {
      expect(c.font).toBeGreaterThanOrEqual(12)
      expect(c.right).toBeLessThanOrEqual(layout.width)
    }
    for (const w of layout.canvases) expect(w).toBeLessThanOrEqual(layout.width)
    await h.screenshot('release-health-phone', page)
  })

  it('names no plan or tier anywhere on a server without billing', async () => {
    for (const path of [`/projects/${slug}/analytics`, `/projects/${slug}/analytics/releases`, `/projects/${slug}/analytics/crashes`, `/projects/${slug}/analytics/telemetry`, `/projects/${slug}/settings/general`, `/projects/${slug}/integrations`, '/team']) {
      await h.page.goto(path)
      await poll(() => h.page.locator('main .spinner').count()).toBe(0)
      await poll(() => h.page.locator('main h1').count()).toBe(1)
      expect(await h.page.locator('body').innerText(), path).not.toMatch(/\btier \d|\b(Free|Pro|Studio|Self-hosted) plan\b|\bPlan: /i)
    }
  })
})
