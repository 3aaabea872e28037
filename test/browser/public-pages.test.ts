import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'
import { publicProject, waitForReport } from './public-fixtures'

describeBrowser('public pages in a browser', () => {
  let h: BrowserHarness
  let slug: string
  let call: Awaited<ReturnType<typeof publicProject>>['call']
  beforeAll(async () => {
    h = await startBrowser()
    const p = await publicProject(h, 'Star Forge')
    slug = p.slug
    call = p.call
    const filed = await h.api('POST', '/api/bugs/submit', {
      apiKey: p.apiKey,
      body: { title: 'Door in the castle will not open', description: 'Pressing E does nothing', category: 'gameplay', reporter_email: 'pat@player.example' },
    })
    expect(filed.status).toBe(201)
    await waitForReport(h, p.me.token, slug, 1)
    await call('POST', `/api/projects/${slug}/bugs/1/comments`, { body: 'Thanks, a fix is on the way', is_internal: false })
    await call('POST', `/api/projects/${slug}/bugs/1/comments`, { body: 'INTERNAL: the trigger volume is misplaced', is_internal: true })
    await call('PUT', `/api/projects/${slug}/tracker-settings`, { enabled: true, allow_upvotes: true, allow_search: true, show_categories: true, show_status_filter: true, page_title: 'Star Forge known issues' })
  })
  afterAll(() => h?.close())

  it('an anonymous visitor sees the report and its public comment, not the internal one', async () => {
    const visitor = await (await h.newContext()).newPage()
    const res = await visitor.goto(`${h.baseUrl}/tracker/${slug}`)
    expect(res?.status()).toBe(200)
    await expect.poll(() => visitor.getByRole('heading', { name: 'Star Forge known issues' }).count()).toBe(1)
    await h.screenshot('public-tracker', visitor)
    await visitor.getByRole('link', { name: /#1 Door in the castle will not open/ }).click()
    await visitor.waitForURL(`**/tracker/${slug}/1`)
    const text = await visitor.textContent('main')
    expect(text).toContain('Thanks, a fix is on the way')
    expect(text).not.toContain('INTERNAL')
    expect(await visitor.content()).not.toContain('pat@player.example')
    await h.screenshot('public-report', visitor)
  })

  it('counts an upvote once: the button shows the vote and a second click does not count', async () => {
    const visitor = await (await h.newContext()).newPage()
    const errors: string[] = []
    visitor.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await visitor.goto(`${h.baseUrl}/tracker/${slug}`)
    // Its name carries the count it shows (WCAG 2.5.3), before and after the vote.
    const button = visitor.getByRole('button', { name: /^Upvote: Door in the castle will not open, ?0 votes$/ })
    await button.click()
    const voted = visitor.getByRole('button', { name: /^Upvoted: Door in the castle will not open, ?1 vote$/ })
    await expect.poll(() => voted.getAttribute('aria-pressed')).toBe('true')
    expect(await voted.locator('.count').textContent()).toBe('1')
    // The script turned the form into a fetch: the page did not navigate.
    expect(visitor.url()).toBe(`${h.baseUrl}/tracker/${slug}`)
    await voted.click({ force: true }).catch(() => {})
    await visitor.reload()
    const after = visitor.getByRole('button', { name: /^Upvoted: Door in the castle will not open, ?1 vote$/ })
    expect(await after.getAttribute('aria-pressed')).toBe('true')
    expect(await after.locator('.count').textContent()).toBe('1')
    const api = await h.api('GET', `/api/tracker/${slug}`)
    expect(api.body.data.bugs[0].upvotes).toBe(1)
    expect(errors).toEqual([])
    await h.screenshot('public-tracker-voted', visitor)
  })

  it('searches and pages with JavaScript off', async () => {
    const ctx = await h.browser.newContext({ javaScriptEnabled: false })
    const page = await ctx.newPage()
    await page.goto(`${h.baseUrl}/tracker/${slug}`)
    await page.getByLabel('Search').fill('castle')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.waitForURL(/q=castle/)
    expect(await page.getByRole('link', { name: /#1 Door/ }).count()).toBe(1)
    await ctx.close()
  })

  it('shows a published changelog entry and its feed', async () => {
    await call('POST', `/api/projects/${slug}/changelog`, { title: 'Patch 1.2', version: '1.2', body: '## Fixed\n- The castle door opens again', publish: true })
    const visitor = await (await h.newContext()).newPage()
    await visitor.goto(`${h.baseUrl}/changelog/${slug}`)
    await expect.poll(() => visitor.getByRole('heading', { name: /Patch 1.2/ }).count()).toBe(1)
    expect(await visitor.textContent('main')).toContain('The castle door opens again')
    await h.screenshot('public-changelog', visitor)
    const feed = await visitor.request.get(`${h.baseUrl}/changelog/${slug}/feed.xml`)
    expect(feed.headers()['content-type']).toBe('application/atom+xml; charset=utf-8')
    const xml = await feed.text()
    // The browser's XML parser is the judge of well-formedness.
    const parsed = await visitor.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml')
      return { error: doc.getElementsByTagName('parsererror').length, root: doc.documentElement.namespaceURI, titles: [...doc.getElementsByTagName('entry')].map((e) => e.getElementsByTagName('title')[0]?.textContent) }
    }, xml)
    expect(parsed).toEqual({ error: 0, root: 'http://www.w3.org/2005/Atom', titles: ['Patch 1.2 (1.2)'] })
  })

  it('shows the roadmap and the 404 page of a disabled one', async () => {
    const visitor = await (await h.newContext()).newPage()
    expect((await visitor.goto(`${h.baseUrl}/roadmap/${slug}`))?.status()).toBe(404)
    await expect.poll(() => visitor.getByRole('heading', { name: 'Page not found' }).count()).toBe(1)
    await call('PUT', `/api/projects/${slug}/roadmap-settings`, { enabled: true, title: 'Star Forge roadmap', show_upvotes: true })
    expect((await visitor.goto(`${h.baseUrl}/roadmap/${slug}`))?.status()).toBe(200)
    await expect.poll(() => visitor.getByRole('heading', { name: /^Open/ }).count()).toBe(1)
    await h.screenshot('public-roadmap', visitor)
  })
})
