/**
 * Issue 15's browser scenario, one step per test, in order, against the real server: a studio signs
 * up, creates a project, triages an SDK report in the dashboard and opens its public pages; a player
 * sees, upvotes and reports through the widget. Each step uses the screens (roles and labels, as
 * web/README.md fixes them). A step that needs an earlier step's result makes it through the API
 * when that step failed, so every step reports on its own screen.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { describeBrowser, startBrowser, type BrowserHarness } from './harness'

const TITLE = 'Player falls through the floor in level 3'
const INTERNAL = 'Internal: physics tick is 30 Hz on this map, suspect the collider'
const PUBLIC = 'Thanks! We can reproduce it and a fix is coming in 1.1.'
const ENTRY = 'Version 1.1: solid floors'
const UI_TIMEOUT = 15_000
/** expect.poll with room for a loaded CI machine (its default gives up after one second). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: UI_TIMEOUT, interval: 100 })

describeBrowser('issue 15: the web app, end to end', () => {
  let h: BrowserHarness
  let page: Page
  let visitor: BrowserContext
  const s: { email: string; password: string; token?: string; slug?: string; apiKey?: string; number?: number } = {
    email: `studio-${Date.now()}@studio.example`,
    password: 'studio-password-1',
  }

  beforeAll(async () => {
    h = await startBrowser()
    page = h.page
    page.setDefaultTimeout(UI_TIMEOUT)
    visitor = await h.newContext()
  })
  afterAll(async () => {
    await h?.close()
  })

  /** The session: from the UI's cookie, else a signup through the API. */
  async function token(): Promise<string> {
    if (s.token) return s.token
    const cookie = (await h.context.cookies()).find((c) => c.name === 'glitchbox_session')
    if (cookie) return (s.token = cookie.value)
    const u = await h.signUp({ email: s.email, password: s.password })
    return (s.token = u.token)
  }

  async function project(): Promise<{ slug: string; apiKey: string }> {
    if (!s.slug) {
      const res = await h.api('POST', '/api/projects', { token: await token(), body: { name: 'Moon Lander' } })
      expect(res.status).toBe(201)
      s.slug = res.body.data.slug
    }
    if (!s.apiKey) {
      const res = await h.api('GET', `/api/projects/${s.slug}`, { token: await token() })
      s.apiKey = res.body.data.api_key ?? res.body.data.project?.api_key
    }
    return { slug: s.slug!, apiKey: s.apiKey! }
  }

  async function report(): Promise<number> {
    if (s.number) return s.number
    const { apiKey } = await project()
    const res = await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: TITLE, description: 'I walked to the big crater and fell into the void.', category: 'gameplay' } })
    expect(res.status).toBe(201)
    return (s.number = res.body.data.report_number)
  }

  /** The team's read of the report: `{bug, comments, labels, …}`. */
  const read = async (n?: number): Promise<{ bug: { status: string; title: string }; comments: { body: string; is_internal: boolean }[]; labels: { name: string }[] }> =>
    (await h.api('GET', `/api/projects/${s.slug}/bugs/${n ?? (await report())}`, { token: await token() })).body.data

  it('1. signs up', async () => {
    await page.goto('/signup')
    await h.screenshot('01-signup')
    await page.getByLabel('Name').fill('Sam Studio')
    await page.getByLabel('Email').fill(s.email)
    await page.getByLabel('Password').fill(s.password)
    await page.getByRole('button', { name: 'Create account' }).click()
    await page.waitForURL((u) => !u.pathname.startsWith('/signup'))
    const cookie = (await h.context.cookies()).find((c) => c.name === 'glitchbox_session')
    expect(cookie?.httpOnly).toBe(true)
    await poll(() => page.getByRole('heading', { name: 'Projects' }).count()).toBeGreaterThan(0)
    await h.screenshot('02-projects-empty')
  })

  it('2. creates a project', async () => {
    await token()
    await page.goto('/projects/new')
    await page.getByLabel('Project name').fill('Moon Lander')
    await page.getByRole('button', { name: 'Create project' }).click()
    await page.waitForURL(/\/projects\/(?!new)[^/?]+/)
    s.slug = /\/projects\/([^/?]+)/.exec(new URL(page.url()).pathname)![1]
    const { apiKey } = await project()
    expect(apiKey).toMatch(/^sk_live_/)
    // The setup checklist shows the key.
    await poll(async () => (await page.content()).includes(apiKey)).toBe(true)
    await h.screenshot('03-project-setup')
  })

  it('3. files a report through the SDK route', async () => {
    const n = await report()
    expect(n).toBeGreaterThan(0)
  })

  it('4. finds it in the list by search', async () => {
    const { slug } = await project()
    await report()
    // An unrelated report, which the search must leave out.
    await h.api('POST', '/api/bugs/submit', { apiKey: s.apiKey, body: { title: 'Music stops after pause', description: 'Audio is gone.' } })
    await page.goto(`/projects/${slug}/reports`)
    await page.getByRole('searchbox', { name: 'Search reports' }).fill('floor')
    await page.getByRole('searchbox', { name: 'Search reports' }).press('Enter')
    await page.waitForURL(/[?&]q=floor/)
    await poll(() => page.getByRole('link', { name: TITLE }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'Music stops after pause' }).count()).toBe(0)
    await h.screenshot('04-report-list-search')
  })

  it('5. opens it', async () => {
    const { slug } = await project()
    const n = await report()
    if (!page.url().includes('q=floor')) await page.goto(`/projects/${slug}/reports?q=floor`)
    await page.getByRole('link', { name: TITLE }).click()
    await page.waitForURL(new RegExp(`/projects/${slug}/reports/${n}(\\?|$)`))
    await poll(() => page.getByRole('heading', { name: TITLE }).count()).toBeGreaterThan(0)
    await h.screenshot('05-report-page')
  })

  it('6. sets the status, adds a label, an internal and a public comment', async () => {
    const { slug } = await project()
    const n = await report()
    if (!new URL(page.url()).pathname.endsWith(`/reports/${n}`)) await page.goto(`/projects/${slug}/reports/${n}`)

    await page.getByLabel('Status', { exact: true }).selectOption('in_progress')
    await poll(async () => (await read()).bug.status).toBe('in_progress')

    await page.getByText('Create a label').click()
    await page.getByLabel('Label name').fill('physics')
    await page.getByRole('button', { name: 'Create label' }).click()
    await poll(async () => (await read()).labels.map((l) => l.name)).toContain('physics')

    const comment = async (text: string, internal: boolean) => {
      await page.getByLabel('Comment', { exact: true }).fill(text)
      const box = page.getByLabel('Internal', { exact: true })
      if ((await box.isChecked()) !== internal) await box.setChecked(internal)
      await page.getByRole('button', { name: 'Add comment' }).click()
      await poll(() => page.getByText(text).count()).toBeGreaterThan(0)
    }
    await comment(INTERNAL, true)
    await comment(PUBLIC, false)
    const { comments } = await read()
    expect(comments.find((c) => c.body === INTERNAL)?.is_internal).toBe(true)
    expect(comments.find((c) => c.body === PUBLIC)?.is_internal).toBe(false)
    await h.screenshot('06-report-triaged')
  })

  /** Makes sure the earlier steps' data exists (when a UI step failed, through the API). */
  async function triaged() {
    const { slug } = await project()
    const n = await report()
    const { comments } = await read()
    const has = (t: string) => comments.some((c) => c.body === t)
    if (!has(INTERNAL)) await h.api('POST', `/api/projects/${slug}/bugs/${n}/comments`, { token: await token(), body: { body: INTERNAL, is_internal: true } })
    if (!has(PUBLIC)) await h.api('POST', `/api/projects/${slug}/bugs/${n}/comments`, { token: await token(), body: { body: PUBLIC, is_internal: false } })
  }

  it('7. enables the public tracker', async () => {
    const { slug } = await project()
    await page.goto(`/projects/${slug}/settings/public-pages`)
    const enable = page.getByLabel('Enable the public tracker')
    await enable.check()
    const upvotes = page.getByLabel('Allow upvotes')
    if (await upvotes.count()) await upvotes.check()
    await page.locator('form', { has: enable }).getByRole('button', { name: 'Save' }).click()
    await poll(async () => (await h.api('GET', `/api/projects/${slug}/tracker-settings`, { token: await token() })).body.data.enabled).toBe(true)
    await h.screenshot('07-settings-public-pages')
  })

  async function trackerOn() {
    const { slug } = await project()
    const cur = await h.api('GET', `/api/projects/${slug}/tracker-settings`, { token: await token() })
    if (!cur.body.data?.enabled || !cur.body.data?.allow_upvotes) {
      await h.api('PUT', `/api/projects/${slug}/tracker-settings`, { token: await token(), body: { enabled: true, allow_upvotes: true } })
    }
  }

  it('8. shows the report and its public comment, never the internal one, to an anonymous visitor', async () => {
    await triaged()
    await trackerOn()
    const { slug } = await project()
    const n = await report()
    const p = await visitor.newPage()
    p.setDefaultTimeout(UI_TIMEOUT)
    const list = await p.goto(`${h.baseUrl}/tracker/${slug}`)
    expect(list?.status()).toBe(200)
    await poll(() => p.getByRole('link', { name: TITLE }).count()).toBeGreaterThan(0)
    await h.screenshot('08-public-tracker', p)
    await p.getByRole('link', { name: TITLE }).first().click()
    await p.waitForURL(new RegExp(`/tracker/${slug}/${n}$`))
    const html = await p.content()
    expect(html).toContain(PUBLIC)
    expect(html).not.toContain(INTERNAL)
    expect(html).not.toContain('physics tick')
    await h.screenshot('09-public-report', p)
    await p.close()
  })

  it('9. counts one upvote per visitor: a second click does not count twice', async () => {
    await trackerOn()
    const { slug } = await project()
    const n = await report()
    const upvotes = async () => (await h.api('GET', `/api/tracker/${slug}/bugs/${n}`)).body.data.upvotes
    const before = await upvotes()
    const p = await visitor.newPage()
    p.setDefaultTimeout(UI_TIMEOUT)
    await p.goto(`${h.baseUrl}/tracker/${slug}/${n}`)
    const button = p.getByRole('button', { name: `Upvote: ${TITLE}` })
    await button.click()
    await poll(upvotes).toBe(before + 1)
    await poll(() => p.getByRole('button', { name: `Upvoted: ${TITLE}` }).count()).toBe(1)
    // Clicked again (on the page as it is, and after a reload): still one vote.
    await p.getByRole('button', { name: new RegExp(`Upvote(d)?: ${TITLE}`) }).click({ force: true, timeout: 2000 }).catch(() => {})
    await p.reload()
    const again = p.getByRole('button', { name: new RegExp(`Upvote(d)?: ${TITLE}`) })
    expect(await again.getAttribute('aria-pressed')).toBe('true')
    await again.click({ force: true, timeout: 2000 }).catch(() => {})
    // And straight at the API, as the page's script would.
    const direct = await p.request.post(`${h.baseUrl}/api/tracker/${slug}/bugs/${n}/vote`, { data: {} })
    expect((await direct.json()).data.is_new).toBe(false)
    await Bun.sleep(300)
    expect(await upvotes()).toBe(before + 1)
    await h.screenshot('10-public-report-upvoted', p)
    await p.close()
  })

  it('10. publishes a changelog entry, shown on the public changelog and in its feed', async () => {
    const { slug } = await project()
    await page.goto(`/projects/${slug}/settings/changelog`)
    await page.getByRole('button', { name: 'New entry' }).click()
    await page.getByLabel('Entry title').fill(ENTRY)
    await page.getByLabel('Version').fill('1.1.0')
    await page.getByLabel('Body (Markdown)').fill('**Fixed:** players no longer fall through the floor in level 3.')
    await page.getByLabel('Published').check()
    await page.getByRole('button', { name: 'Save entry' }).click()
    await poll(async () => JSON.stringify((await h.api('GET', `/api/projects/${slug}/changelog`)).body.data)).toContain(ENTRY)
    await h.screenshot('11-settings-changelog')

    const p = await visitor.newPage()
    const res = await p.goto(`${h.baseUrl}/changelog/${slug}`)
    expect(res?.status()).toBe(200)
    await poll(() => p.getByRole('heading', { name: ENTRY }).count()).toBeGreaterThan(0)
    // The markdown is rendered.
    expect(await p.locator('strong', { hasText: 'Fixed:' }).count()).toBeGreaterThan(0)
    await h.screenshot('12-public-changelog', p)
    await p.close()
    const feed = await fetch(`${h.baseUrl}/changelog/${slug}/feed.xml`)
    expect(feed.status).toBe(200)
    expect(feed.headers.get('content-type')).toMatch(/atom\+xml|xml/)
    const xml = await feed.text()
    expect(xml).toContain('<feed')
    expect(xml).toContain(ENTRY)
  })

  it('11. files a report through the widget on a page served from another origin', async () => {
    const { apiKey } = await project()
    const game = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Moon Lander (web build)</title></head><body><h1>Moon Lander</h1><canvas width="320" height="200"></canvas><script src="${h.baseUrl}/widget.js" data-project-key="${apiKey}" async></script></body></html>`,
          { headers: { 'content-type': 'text/html; charset=utf-8' } },
        ),
    })
    try {
      const gameUrl = `http://localhost:${game.port}/`
      expect(new URL(gameUrl).origin).not.toBe(new URL(h.baseUrl).origin)
      const p = await visitor.newPage()
      p.setDefaultTimeout(UI_TIMEOUT)
      await p.goto(gameUrl)
      await p.getByRole('button', { name: /report a bug/i }).click()
      await p.getByLabel('Title').fill('Lander explodes on soft landing')
      await p.getByLabel('Description').fill('Touched down at 0.5 m/s and it blew up.')
      await h.screenshot('13-widget-form', p)
      await p.getByRole('button', { name: 'Send report' }).click()
      const done = p.getByText(/Your report was sent as #\d+/)
      await done.waitFor()
      const number = Number(/#(\d+)/.exec((await done.textContent()) ?? '')![1])
      await h.screenshot('14-widget-sent', p)
      await p.close()
      expect((await read(number)).bug.title).toBe('Lander explodes on soft landing')
    } finally {
      game.stop(true)
    }
  })
})
