// axe-core over every screen a person can open, in the light and the dark theme, with a launch day's
// data so that lists, charts and report pages are full: every route of the dashboard's route table
// (signed in, and the sign-in pages signed out), the app's own 404 screen, and the public pages
// (tracker, one public report, roadmap, changelog, and their 404). No serious or critical violation.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'
import { launchDayProject } from './launch-day-project'
import { waitForReport } from './public-fixtures'
import { dashboardRoutes } from './route-table'

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const THEMES = ['light', 'dark'] as const
type Theme = (typeof THEMES)[number]

interface Violation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[]; summary: string }[]
}

/**
 * axe's serious and critical violations on the page as it is now, one line per rule and page:
 * the rule, its help text and up to three selectors with axe's reason for the first.
 */
async function violationsOf(page: Page, where: string): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the pages' Content-Security-Policy does not refuse it.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE)
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.map(String), summary: n.failureSummary || '' })),
  })))`)) as Violation[]
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} [${v.nodes.length}] ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')} — ${v.nodes[0]?.summary.replace(/\s+/g, ' ').slice(0, 200)}`)
}

describeBrowser('accessibility of every screen (axe-core), light and dark', () => {
  let h: BrowserHarness
  let slug: string
  let topReport: number
  let playerId: string
  /** A native crash whose frames are wider than the page: its stack trace must scroll, by keyboard too. */
  let wideTrace: number

  beforeAll(async () => {
    h = await startBrowser()
    const p = await launchDayProject(h)
    slug = p.slug
    topReport = p.topReport
    playerId = p.playerId
    const frame = (n: number) => `  at std::_Func_impl_no_alloc<void (__cdecl*)(FInventoryDelegate&, TArray<FItemStack,TSizedDefaultAllocator<32> > const&),void>::_Do_call(FInventoryDelegate&, TArray<FItemStack> const&) + ${n} (Engine/Source/Runtime/Core/Public/Templates/Function.h:${400 + n})`
    const filed = await h.api('POST', '/api/bugs/submit', {
      apiKey: p.apiKey,
      body: { title: '[Error] EXCEPTION_ACCESS_VIOLATION reading address 0x0000000000000018', description: `EXCEPTION_ACCESS_VIOLATION\n\n--- Stack Trace ---\n${[1, 2, 3, 4].map(frame).join('\n')}`, category: 'crash', auto_captured: true, game_version: '1.3.0' },
    })
    wideTrace = filed.body.data.report_number
    await waitForReport(h, p.me.token, slug, wideTrace)
  }, 240_000)
  afterAll(() => h?.close())

  const fill = (pattern: string) => pattern.replace(':slug', slug).replace(':number', String(topReport)).replace(':playerId', encodeURIComponent(playerId))

  /** Opens `path` in `theme` and waits for the screen to settle (no spinner, nothing busy). */
  async function open(page: Page, path: string, theme: Theme) {
    await page.emulateMedia({ colorScheme: theme })
    const res = await page.goto(path)
    await expect.poll(() => page.locator('.spinner, [aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0)
    return res
  }

  /** Sweeps `paths` in both themes on `page`; `dashboard` pages must also have taken the theme asked for. */
  async function sweep(page: Page, paths: string[], o: { dashboard: boolean }) {
    const problems: string[] = []
    for (const theme of THEMES) {
      for (const path of paths) {
        await open(page, path, theme)
        // A dashboard screen that did not take the theme asked for (or is no dashboard screen at all) is a problem too.
        const took = o.dashboard ? await page.evaluate(() => document.documentElement.dataset.theme) : theme
        if (took !== theme) problems.push(`${path} (${theme}): shown in theme ${took}`)
        problems.push(...(await violationsOf(page, `${path} (${theme})`)))
      }
    }
    return problems
  }

  it('finds none on the dashboard screens, signed in', { timeout: 600_000 }, async () => {
    const paths = [...dashboardRoutes.filter((r) => !r.public).map((r) => fill(r.path)), `/projects/${slug}/reports/${wideTrace}`, `/projects/${slug}/no-such-screen`, '/no-such-page']
    expect(paths.length).toBeGreaterThan(30)
    expect(await sweep(h.page, paths, { dashboard: true })).toEqual([])
  })

  it('lets a keyboard reach and scroll a stack trace wider than the page', async () => {
    await open(h.page, `/projects/${slug}/reports/${wideTrace}`, 'light')
    const trace = h.page.locator('pre[aria-label="Stack trace"]')
    expect(await trace.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    // Tab until the trace has the focus (it is in the tab order), then scroll it with the arrow keys.
    for (let i = 0; i < 200 && !(await trace.evaluate((el) => el === document.activeElement)); i++) await h.page.keyboard.press('Tab')
    expect(await trace.evaluate((el) => el === document.activeElement)).toBe(true)
    for (let i = 0; i < 5; i++) await h.page.keyboard.press('ArrowRight')
    await expect.poll(() => trace.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
  })

  it('finds none on the sign-in screens, signed out', { timeout: 120_000 }, async () => {
    const page = await (await h.newContext()).newPage()
    const paths = dashboardRoutes.filter((r) => r.public).map((r) => r.path)
    expect(paths).toContain('/login')
    expect(await sweep(page, paths, { dashboard: true })).toEqual([])
  })

  it('finds none on the public pages', { timeout: 120_000 }, async () => {
    const page = await (await h.newContext()).newPage()
    const paths = [`/tracker/${slug}`, `/tracker/${slug}/${topReport}`, `/roadmap/${slug}`, `/changelog/${slug}`, '/tracker/no-such-game']
    expect(await sweep(page, paths, { dashboard: false })).toEqual([])
  })
})
