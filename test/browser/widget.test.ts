import type { Server } from 'bun'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'
import { publicProject } from './public-fixtures'

/** A game's page on another origin: a canvas with something drawn on it and the widget's script tag. */
function gamePage(glitchbox: string, key: string, extra = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Star Forge (web build)</title></head>
<body><h1>Star Forge</h1><canvas id="game" width="320" height="180"></canvas>
<script src="/draw.js"></script>
<script src="${glitchbox}/widget.js" data-project-key="${key}" data-canvas="#game" data-game-version="1.4.2" ${extra} async></script></body></html>`
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

  it('files a report with the canvas as screenshot (shown as a thumbnail) and the game version of the script tag, and shows its number', async () => {
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
    const thumbnail = dialog.getByRole('img', { name: 'Screenshot of the game that will be sent with the report' })
    await expect.poll(() => thumbnail.isVisible()).toBe(true)
    expect(await thumbnail.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    await h.screenshot('widget-form', page)
    await dialog.getByLabel('Title').fill('Enemies freeze on level 3')
    await dialog.getByLabel('Description').fill('All enemies stop moving after the checkpoint')
    await dialog.getByLabel('Category').selectOption('gameplay')
    await dialog.getByLabel('Email (optional)').fill('pat@player.example')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    // The status when it worked, the alert's reason when it did not.
    // Once sent, the dialog is titled "Thank you!".
    await expect.poll(() => page.getByRole('dialog').locator('[role=status], .error:not(:empty)').first().textContent({ timeout: 1000 }).catch(() => null), { timeout: 15_000 }).toBe('Your report was sent as #1.')
    await h.screenshot('widget-sent', page)
    const bug = (await call('GET', `/api/projects/${slug}/bugs/1`)).bug
    expect(bug).toMatchObject({ title: 'Enemies freeze on level 3', category: 'gameplay', reporter_email: 'pat@player.example', platform: 'web', game_version: '1.4.2' })
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

  it('lets the player remove the screenshot, and takes the version and the player from window.Glitchbox.open()', async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${game.port}/?button=false`)
    await page.waitForFunction(() => typeof (window as { Glitchbox?: unknown }).Glitchbox === 'object')
    await page.evaluate(() =>
      (window as unknown as { Glitchbox: { open(o: unknown): void } }).Glitchbox.open({ version: '2.0.0-beta', player: { id: 'steam-76561198000000042', name: 'Pat', email: 'pat@player.example' } }),
    )
    const dialog = page.getByRole('dialog', { name: 'Report a bug' })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    expect(await dialog.getByLabel('Email (optional)').inputValue()).toBe('pat@player.example')
    await dialog.getByRole('button', { name: 'Remove screenshot' }).click()
    expect(await dialog.getByRole('img').count()).toBe(0)
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('The screenshot will not be sent.')
    await dialog.getByLabel('Title').fill('Shield bar stays empty')
    await dialog.getByLabel('Description').fill('After respawning the shield never recharges')
    await dialog.getByRole('button', { name: 'Send report' }).click()
    // Once sent, the dialog is titled "Thank you!".
    const done = page.getByRole('dialog', { name: 'Thank you!' })
    await expect.poll(() => done.getByRole('status').textContent({ timeout: 1000 }).catch(() => '')).toMatch(/^Your report was sent as #\d+\.$/)
    const n = Number(/#(\d+)/.exec((await done.getByRole('status').textContent())!)![1])
    const bug = (await call('GET', `/api/projects/${slug}/bugs/${n}`)).bug
    expect(bug).toMatchObject({ title: 'Shield bar stays empty', game_version: '2.0.0-beta', player_id: 'steam-76561198000000042', reporter_name: 'Pat', reporter_email: 'pat@player.example', screenshot_url: null })
  })

  it('suggests public reports as the title is typed and votes for one instead of filing', async () => {
    await call('PUT', `/api/projects/${slug}/tracker-settings`, { enabled: true, allow_upvotes: true })
    await call('PATCH', `/api/projects/${slug}/bugs/1`, { published: true })
    const before = (await call('GET', `/api/projects/${slug}/bugs`)).total
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${game.port}/`)
    await page.getByRole('button', { name: 'Report a bug' }).click()
    const dialog = page.getByRole('dialog', { name: 'Report a bug' })
    await dialog.getByLabel('Title').pressSequentially('enemies freeze', { delay: 20 })
    const vote = dialog.getByRole('button', { name: 'Vote for #1 Enemies freeze on level 3 instead' })
    await expect.poll(() => vote.isVisible(), { timeout: 10_000 }).toBe(true)
    expect(await dialog.getByRole('link', { name: '#1 Enemies freeze on level 3' }).getAttribute('href')).toBe(`${h.baseUrl}/tracker/${slug}/1`)
    await h.screenshot('widget-suggestions', page)
    await vote.click()
    const done = page.getByRole('dialog', { name: 'Thank you!' })
    await expect.poll(() => done.getByRole('status').textContent({ timeout: 1000 }).catch(() => '')).toContain('Your vote was added to #1.')
    expect(await done.getByRole('link', { name: 'See the report' }).getAttribute('href')).toBe(`${h.baseUrl}/tracker/${slug}/1`)
    expect((await h.api('GET', `/api/tracker/${slug}/bugs/1`)).body.data.upvotes).toBe(1)
    expect((await call('GET', `/api/projects/${slug}/bugs`)).total).toBe(before)
  })

  it("takes the project's brand colour when the widget theme sets none", async () => {
    await call('PUT', `/api/projects/${slug}/branding`, { primary_color: '#116633' })
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${game.port}/`)
    const launcher = page.getByRole('button', { name: 'Report a bug' })
    await expect.poll(() => launcher.count()).toBe(1)
    expect(await launcher.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(17, 102, 51)')
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
