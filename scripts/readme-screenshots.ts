/**
 * Regenerates the README's screenshots (docs/screenshots/*.png) from a launch day: the real server from
 * source with the launch-day dataset (test/helpers/launch-day.ts: 5,000 submissions from 500 players over
 * three versions, 24 crashes, 450 sessions) sent through its SDK routes, driven by Chromium at 1280×800
 * in the light theme.
 *
 *   bun scripts/readme-screenshots.ts        # about a minute; needs Chromium (see test/browser/harness.ts)
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { startBrowser } from '../test/browser/harness'
import { launchDayProject } from '../test/browser/launch-day-project'
import { ROOT } from '../test/helpers/server-process'

const OUT = join(ROOT, 'docs', 'screenshots')

/** Waits until the screen has loaded (no spinner, nothing busy, no request in flight). */
async function settle(page: Page) {
  for (let i = 0; i < 300 && (await page.locator('.spinner, [aria-busy="true"]').count()) > 0; i++) await page.waitForTimeout(50)
  await page.waitForLoadState('networkidle')
}

const h = await startBrowser()
try {
  const p = await launchDayProject(h)
  // A studio's owner has confirmed their address, so no banner asks for it: the first account of a
  // server is verified at signup; another follows the mailed link.
  const verified = async () => ((await p.call('GET', '/api/auth/me')) as { email_verified: boolean }).email_verified
  if (!(await verified())) {
    const link = (await h.mails(p.me.email)).at(-1)?.text.match(/https?:\/\/\S+verify-email\?token=\S+/)?.[0]
    if (link) await h.page.goto(link)
    if (!(await verified())) throw new Error(`could not verify the owner's email (${link} → ${h.page.url()})`)
  }
  // The release-health screen reads rollups that a background job brings up to date about once a minute.
  for (let i = 0; i < 180; i++) {
    const health = await p.call('GET', `/api/projects/${p.slug}/release-health`)
    if ((health as { versions: { reports: number }[] }).versions.some((v) => v.reports > 0)) break
    await Bun.sleep(1000)
  }
  await h.page.emulateMedia({ colorScheme: 'light' })
  // Each screen from its top, `height` pixels of it (the report page is taller than one window).
  const shots: [name: string, path: string, height: number][] = [
    ['report-list', `/projects/${p.slug}/reports?sort=players`, 800],
    ['report-page', `/projects/${p.slug}/reports/${p.topReport}`, 1600],
    ['release-health', `/projects/${p.slug}/analytics/releases`, 800],
  ]
  for (const [name, path, height] of shots) {
    await h.page.goto(path)
    await settle(h.page)
    const full = await h.page.evaluate(() => document.documentElement.scrollHeight)
    await h.page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.min(height, full) } })
    console.log(`docs/screenshots/${name}.png ← ${path}`)
  }
  // The tracker shows what the studio published (new projects publish triaged reports only, never
  // auto-filed crashes): the team publishes the players' most-voted reports, as a studio would.
  const { bugs: voted } = (await p.call('GET', `/api/projects/${p.slug}/bugs?source=user&sort=upvotes`)) as { bugs: { report_number: number }[] }
  for (const b of voted.slice(0, 12)) await p.call('PATCH', `/api/projects/${p.slug}/bugs/${b.report_number}`, { published: true })
  const visitor = await (await h.newContext()).newPage()
  await visitor.emulateMedia({ colorScheme: 'light' })
  await visitor.goto(`/tracker/${p.slug}`)
  await settle(visitor)
  await visitor.screenshot({ path: join(OUT, 'public-tracker.png') })
  console.log(`docs/screenshots/public-tracker.png ← /tracker/${p.slug}`)
} finally {
  await h.close()
}
