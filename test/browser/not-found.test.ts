// Addresses that lead nowhere, as a browser opens them: an unknown dashboard path shows the app's own
// "Page not found" screen (never the API's raw JSON), and a report with nothing linked to it is read
// without a single request that answers 404.
import type { Page, Response } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'
import { waitForReport } from './public-fixtures'

describeBrowser('unknown addresses and needless 404s', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Nora Nowhere' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Lost Caves' } })
    slug = project.body.data.slug
    const filed = await h.api('POST', '/api/bugs/submit', {
      apiKey: project.body.data.api_key,
      body: { title: '[Error] NullReferenceException: Object reference not set', description: 'NullReferenceException\n\n--- Stack Trace ---\n  at Cave.Enter () in Cave.cs:12', category: 'crash', auto_captured: true },
    })
    expect(filed.status).toBe(201)
    await waitForReport(h, me.token, slug, 1)
  })
  afterAll(() => h?.close())

  /** Opens `path` and expects the app's 404 screen: its heading, the page title, a way back, no JSON. */
  async function expectNotFoundScreen(page: Page, path: string, status: number) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(status)
    await poll(() => page.getByRole('heading', { level: 1, name: 'Page not found' }).count()).toBe(1)
    expect(await page.title()).toBe('Page not found · Glitchbox')
    expect(await page.getByRole('link', { name: 'Go to your projects' }).count()).toBe(1)
    expect(await page.textContent('body')).not.toContain('"ok":false')
  }

  it('shows a signed-in member the 404 screen inside the dashboard, under a dashboard path or not', async () => {
    // Outside every dashboard path the server says 404 too; under one it cannot tell, the app does.
    for (const path of ['/settings', '/reports/12', '/dashboard']) await expectNotFoundScreen(h.page, path, 404)
    for (const path of [`/projects/${slug}/no-such-screen`, `/projects/${slug}/reports/1/extra`, '/team/nobody']) await expectNotFoundScreen(h.page, path, 200)
    // Inside the dashboard's frame: its navigation is there.
    // The frame's navigation renders once the signed-in member's projects are read: wait for it.
    await poll(() => h.page.getByRole('link', { name: 'Team' }).count()).toBeGreaterThan(0)
    await h.screenshot('dashboard-404')
  })

  it('says "Project not found" on every screen of a project address that leads nowhere, never naming it as a project', async () => {
    for (const screen of ['settings', 'reports', 'analytics', 'reports/3']) {
      await h.page.goto(`/projects/no-such-game/${screen}`)
      await poll(() => h.page.getByRole('heading', { level: 1, name: 'Project not found' }).count()).toBe(1)
      // The title follows the heading in the screen's effect, after the frame that shows the heading.
      await poll(() => h.page.title()).toBe('Project not found · Glitchbox')
      expect(await h.page.getByRole('link', { name: 'Go to your projects' }).count()).toBe(1)
      expect(await h.page.textContent('main')).not.toContain('of no-such-game')
    }
  })

  it('shows a signed-out visitor the same screen, and keeps the API and public pages answering their own 404', async () => {
    const page = await (await h.newContext()).newPage()
    await expectNotFoundScreen(page, '/settings', 404)
    const api = await page.goto('/api/no-such-route')
    expect(api?.status()).toBe(404)
    expect(JSON.parse((await page.textContent('body'))!)).toEqual({ ok: false, error: 'not found' })
    const tracker = await page.goto(`/tracker/no-such-game`)
    expect(tracker?.status()).toBe(404)
    expect(await page.getByRole('heading', { level: 1, name: 'Page not found' }).count()).toBe(1)
    expect(await page.locator('#app').count()).toBe(0)
  })

  it('reads a report with nothing linked without a request that answers 404', async () => {
    const answers: Response[] = []
    const listen = (r: Response) => r.url().startsWith(h.baseUrl) && answers.push(r)
    h.page.on('response', listen)
    await h.page.goto(`/projects/${slug}/reports/1`)
    await poll(() => h.page.getByRole('heading', { level: 1 }).textContent()).toContain('NullReferenceException')
    await poll(() => h.page.locator('.spinner, [aria-busy="true"]').count()).toBe(0)
    await h.page.waitForLoadState('networkidle')
    h.page.off('response', listen)
    const asked = answers.map((r) => `${r.status()} ${new URL(r.url()).pathname}`)
    expect(asked.filter((a) => a.startsWith('404'))).toEqual([])
    // The git section still asked whether a repository is connected.
    expect(asked).toContain(`200 /api/projects/${slug}/bugs/1/issue`)
    // No repository is connected: no section offers to file an issue in one.
    expect(await h.page.getByRole('button', { name: /Create (GitHub|GitLab) issue/ }).count()).toBe(0)
  })
})
