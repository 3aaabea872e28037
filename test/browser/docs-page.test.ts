import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { seriousViolations } from './axe'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'

/** Hosted Scalar services the viewer offers unless configured not to (issue 21, item 11). */
const HOSTED_CONTROLS = ['Ask AI', 'Deploy', 'Share', 'Configure', 'Open API Client']

describeBrowser('the API docs page (/docs)', () => {
  let h: BrowserHarness
  beforeAll(async () => {
    h = await startBrowser()
  })
  afterAll(() => h?.close())

  /** Opens /docs in a fresh context, aborting and recording every request that would leave the server. */
  async function openDocs(o: { bypassCSP?: boolean } = {}) {
    const context = o.bypassCSP ? await h.browser.newContext({ baseURL: h.baseUrl, bypassCSP: true }) : await h.newContext()
    const page = await context.newPage()
    const outside: string[] = []
    await page.route('**', (route) => {
      const url = route.request().url()
      if (url.startsWith(`${h.baseUrl}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
      outside.push(url)
      return route.abort()
    })
    // CSP violations, reported by the page itself as they happen.
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI} ${e.sample}`))
    })
    const errors: string[] = []
    // Chromium logs each refused style attribute as an error too (see violationsOf).
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Applying inline style violates') && errors.push(m.text()))
    await page.goto(`${h.baseUrl}/docs`)
    // The reference is rendered once the document's operations are listed.
    await expect.poll(() => page.getByText('Sign in with email and password', { exact: false }).count(), { timeout: 20_000 }).toBeGreaterThan(0)
    await page.waitForLoadState('networkidle')
    return { context, page, outside, errors }
  }

  /**
   * What the CSP refused, less two kinds that change nothing: zod (inside Scalar) probes whether it may
   * compile with `new Function('')` and does without; and style attributes (a scrollbar-width probe, the
   * line-count variables of code blocks). Any refused script, stylesheet, connection, image or font counts.
   */
  const violationsOf = async (page: Page) =>
    (await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).filter((v) => !/^script-src eval /.test(v) && !/^style-src-attr inline /.test(v))

  it('is served with the CSP of the other pages and may not be framed', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await h.api('GET', path)
      expect(res.status, path).toBe(200)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("default-src 'self'")
      expect(csp, path).toMatch(/(^|; )script-src 'self'(;|$)/)
      expect(csp, path).toMatch(/(^|; )connect-src 'self'(;|$)/)
      expect(csp, path).not.toContain('unsafe-inline')
      expect(res.headers.get('x-frame-options'), path).toBe('DENY')
    }
  })

  it('renders the whole reference with no request leaving the server, no CSP violation and no error', async () => {
    const { context, page, outside, errors } = await openDocs()
    // Open an operation and its example request, as a reader does.
    await page.getByText('Sign in with email and password', { exact: false }).first().click()
    await page.waitForLoadState('networkidle')
    expect(outside).toEqual([])
    expect(await violationsOf(page)).toEqual([])
    expect(errors).toEqual([])
    await h.screenshot('api-docs', page)
    await context.close()
  })

  it("shows none of Scalar's hosted-service controls and links nowhere but this server (and Scalar's credit)", async () => {
    const { context, page } = await openDocs()
    for (const name of HOSTED_CONTROLS) {
      expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0)
      expect(await page.getByRole('link', { name, exact: true }).count(), name).toBe(0)
    }
    const links = await page.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href))
    // The one link away is the viewer's credit ("Powered by Scalar"), to the project's home page.
    const away = links.filter((href) => !href.startsWith(`${h.baseUrl}/`) && !/^(blob|data|mailto):/.test(href) && href !== 'https://www.scalar.com/')
    expect(away).toEqual([])
    await context.close()
  })

  it('has no serious or critical accessibility violation (axe-core; issue 29: contrast)', async () => {
    // axe is injected as an inline script, which the page's own CSP refuses: this context bypasses it.
    const { context, page } = await openDocs({ bypassCSP: true })
    expect(await seriousViolations(page)).toEqual([])
    await context.close()
  }, 90_000)
})
