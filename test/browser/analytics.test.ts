import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

describeBrowser('the release-health page in a browser', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Ana Analytics' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Comet Kart' } })
    expect(project.status).toBe(201)
    slug = project.body.data.slug
    const apiKey = project.body.data.api_key
    // 12 ended sessions per version: 1.0.0 never crashes, 2.0.0 crashes in 6 of 12.
    for (const [version, crashes] of [
      ['1.0.0', 0],
      ['2.0.0', 6],
    ] as const) {
      for (let i = 0; i < 12; i++) {
        const session_token = `browser-${version}-${i}`
        expect((await h.api('POST', '/api/sessions/start', { body: { api_key: apiKey, session_token, game_version: version, platform: 'windows', player_id: `p${i}` } })).status).toBeLessThan(300)
        expect((await h.api('POST', '/api/sessions/end', { body: { api_key: apiKey, session_token, crashed: i < crashes } })).status).toBeLessThan(300)
      }
    }
  })
  afterAll(() => h?.close())

  it('shows each version with its crash-free rate, the bad-deploy verdict, and one version’s chart', async () => {
    await h.page.goto(`/projects/${slug}/analytics/releases`)
    const table = h.page.getByRole('table', { name: 'Release health per version' })
    await poll(() => table.locator('tbody tr').count()).toBe(2)
    const rows = (await table.locator('tbody tr').allTextContents()).map((r) => r.replace(/\s+/g, ' '))
    expect(rows[0]).toContain('2.0.0')
    expect(rows[0]).toContain('50.0%')
    expect(rows[1]).toContain('100%')
    // 12/12 vs 6/12 crash-free: pooled 0.75, z = -2.83, p ≈ 0.0047 < 0.05
    await poll(() => h.page.getByText('2.0.0 crashes more than 1.0.0: 50.0% vs 100.0% crash-free sessions, a real difference, not chance (p = 0.0047)').count()).toBe(1)
    await h.page.getByLabel('Version details').selectOption('2.0.0')
    await poll(() => h.page.getByText('Crash-free sessions per day in 2.0.0 (%)').count()).toBeGreaterThan(0)
    expect(new URL(h.page.url()).searchParams.get('version')).toBe('2.0.0')
    await h.screenshot('analytics-release-health')
  })

  it('shows the overview, and a player with their sessions, and saves notes on them', async () => {
    await h.page.goto(`/projects/${slug}/analytics`)
    await poll(() => h.page.getByText('Crash-free sessions per day (%)').count()).toBeGreaterThan(0)
    // 24 ended sessions, 6 crashed: 75.0%
    await poll(() => h.page.getByText('75.0%').count()).toBeGreaterThan(0)
    await h.screenshot('analytics-overview')

    await h.page.getByRole('link', { name: 'Players' }).click()
    await poll(() => h.page.getByRole('table', { name: /Players, page 1/ }).locator('tbody tr').count()).toBe(12)
    await h.page.getByRole('searchbox', { name: 'Search players' }).fill('p11')
    await poll(() => h.page.getByRole('table', { name: /Players, page 1/ }).locator('tbody tr').count()).toBe(1)
    await h.page.getByRole('link', { name: 'p11' }).click()
    await poll(() => h.page.getByRole('table', { name: 'Sessions, newest first' }).locator('tbody tr').count()).toBe(2)
    await h.page.getByLabel('Notes').fill('Plays every evening')
    await h.page.getByLabel('Sentiment').selectOption('positive')
    await h.page.getByRole('button', { name: 'Save notes' }).click()
    await poll(async () => (await h.api('GET', `/api/projects/${slug}/players/p11`, { token: me.token })).body.data).toMatchObject({ notes: 'Plays every evening', sentiment: 'positive' })
    await h.screenshot('analytics-player')
  })
})
