import type { Server } from 'bun'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'
import { publicProject } from './public-fixtures'

/** A game's page on another origin: a canvas with something drawn on it and the widget's script tag. */
function gamePage(glitchbox: string, key: string, extra = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Star Forge (web build)</title></head>
<body><h1>Star Forge</h1><canvas id="game" width="320" height="180"></canvas>
<script src="/draw.js"></script>
<script src="${glitchbox}/widget.js" data-project-key="${key}" data-canvas="#game" ${extra} async></script></body></html>`
}
const DRAW = `const c = document.getElementById('game').getContext('2d'); c.fillStyle = '#0a0'; c.fillRect(0, 0, 320, 180); c.fillStyle = '#fff'; c.fillText('level 3', 10, 20)`

describeBrowser('the report widget on a page from another origin', () => {
  let h: BrowserHarness
  let game: Server<undefined>
  let slug: string
  let call: Awaited<ReturnType<typeof publicProject>>['call']
  let apiKey: string
  beforeAll(async () => {
    h = await startBrowser()
    ;({ slug, call, apiKey } = await publicProject(h, 'Star Forge'))
    game = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch(req) {
        const url = new URL(req.url)
        if (url.pathname === '/draw.js') return new Response(DRAW, { headers: { 'content-type': 'text/javascript' } })
        const extra = url.searchParams.get('button') === 'false' ? 'data-button="false"' : ''
        return new Response(gamePage(h.baseUrl, apiKey, extra), { headers: { 'content-type': 'text/html' } })
      },
    })
  })
  afterAll(async () => {
    game?.stop(true)
    await h?.close()
  })

  it('files a report with the canvas as screenshot and shows its number', async () => {
    // The game page is served by `localhost`, the server by 127.0.0.1: two origins.
    const gameUrl = `http://localhost:${game.port}/`
    expect(new URL(gameUrl).origin).not.toBe(new URL(h.baseUrl).origin)
    const page = await (await h.newContext()).newPage()
    const errors: string[] = []
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    await page.goto(gameUrl)
    const launcher = page.getByRole('button', { name: 'Report a bug' })
    await launcher.click()
    const dialog = page.getByRole('dialog', { name: 'Report a bug' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await h.screenshot('widget-form', page)
    await dialog.getByLabel('Title').fill('Enemies freeze on level 3')
    await dialog.getByLabel('Description').fill('All enemies stop moving after the checkpoint')
    await dialog.getByLabel('Category').selectOption('gameplay')
    await dialog.getByLabel('Email (optional)').fill('pat@player.example')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    // The status when it worked, the alert's reason when it did not.
    // Once sent, the dialog is titled "Thank you!".
    await expect.poll(() => page.getByRole('dialog').locator('[role=status], .error:not(:empty)').first().textContent({ timeout: 1000 }).catch(() => null)).toBe('Your report was sent as #1.')
    await h.screenshot('widget-sent', page)
    const bug = (await call('GET', `/api/projects/${slug}/bugs/1`)).bug
    expect(bug).toMatchObject({ title: 'Enemies freeze on level 3', category: 'gameplay', reporter_email: 'pat@player.example', platform: 'web' })
    expect(bug.screenshot_url).toBeTruthy()
    const shot = await fetch(bug.screenshot_url)
    expect(shot.headers.get('content-type')).toBe('image/png')
    expect(errors).toEqual([])
  })

  it('is a dialog that keeps focus inside and closes on Escape', async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${game.port}/`)
    const launcher = page.getByRole('button', { name: 'Report a bug' })
    await launcher.click()
    const dialog = page.getByRole('dialog', { name: 'Report a bug' })
    await expect.poll(() => dialog.getByLabel('Title').evaluate((e) => e === (e.getRootNode() as ShadowRoot).activeElement)).toBe(true)
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab')
    expect(await dialog.evaluate((d) => d.contains((d.getRootNode() as ShadowRoot).activeElement))).toBe(true)
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.count()).toBe(0)
    expect(await launcher.evaluate((e) => e === (e.getRootNode() as ShadowRoot).activeElement)).toBe(true)
  })

  it('uses the widget theme and, with data-button="false", opens only from window.Glitchbox.open()', async () => {
    await call('PUT', `/api/projects/${slug}/widget-settings`, { button_text: 'Found a bug?', theme: { primary_color: '#aa0055' } })
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${game.port}/`)
    const themed = page.getByRole('button', { name: 'Found a bug?' })
    await expect.poll(() => themed.count()).toBe(1)
    expect(await themed.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(170, 0, 85)')
    await page.goto(`http://localhost:${game.port}/?button=false`)
    await page.waitForFunction(() => typeof (window as { Glitchbox?: unknown }).Glitchbox === 'object')
    await page.waitForTimeout(300)
    expect(await page.getByRole('button', { name: 'Found a bug?' }).count()).toBe(0)
    await page.evaluate(() => (window as unknown as { Glitchbox: { open(): void } }).Glitchbox.open())
    await expect.poll(() => page.getByRole('dialog', { name: 'Report a bug' }).isVisible()).toBe(true)
  })
})
