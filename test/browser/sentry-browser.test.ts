// @sentry/browser in Chromium (issue 23): an HTML5 game on another origin, instrumented with Sentry's
// browser SDK and given only the project's DSN, reports an uncaught error, a rejected promise and
// the player's feedback to Glitchbox (cross-origin, the SDK's text/plain bodies).
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { freePort } from '../helpers/server-process'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'

describeBrowser('@sentry/browser in a web game on another origin', () => {
  let h: BrowserHarness
  let gameServer: ReturnType<typeof Bun.serve>
  let slug = ''
  let token = ''

  beforeAll(async () => {
    h = await startBrowser({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
    const me = await h.signUp()
    token = me.token
    slug = (await h.api('POST', '/api/projects', { token, body: { name: 'Web Game' } })).body.data.slug
    const { dsn } = (await h.api('GET', `/api/projects/${slug}`, { token })).body.data
    // The game's own bundle, built by Bun from the npm package, served from another origin.
    const built = await Bun.build({ entrypoints: [join(import.meta.dirname, 'fixtures', 'sentry-game.js')], target: 'browser', minify: true })
    const script = await built.outputs[0]!.text()
    const page = `<!doctype html><html><head><title>Web game</title></head><body><script>window.GAME_DSN = ${JSON.stringify(dsn)}</script><script src="/game.js"></script></body></html>`
    gameServer = Bun.serve({
      hostname: '127.0.0.1',
      port: await freePort(),
      fetch: (req) => (new URL(req.url).pathname === '/game.js' ? new Response(script, { headers: { 'content-type': 'text/javascript' } }) : new Response(page, { headers: { 'content-type': 'text/html' } })),
    })
  }, 120_000)

  afterAll(async () => {
    gameServer?.stop(true)
    await h?.close()
  })

  it('sends an uncaught error, a rejected promise and feedback, which become reports', async () => {
    // localhost is another origin than the Glitchbox server's 127.0.0.1.
    const game = await h.newContext()
    const page = await game.newPage()
    const sent: { url: string; type: string | null; status: number; allowOrigin: string | null }[] = []
    page.on('response', async (res) => {
      if (res.url().includes('/envelope/')) sent.push({ url: res.url(), type: res.request().headers()['content-type'] ?? null, status: res.status(), allowOrigin: res.headers()['access-control-allow-origin'] ?? null })
    })
    await page.goto(`http://localhost:${gameServer.port}/`)
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' })
    await page.evaluate(() => (window as unknown as { fail: Record<string, () => unknown> }).fail.uncaught())
    // Not returned to Playwright: nobody handles the rejection, as in a game.
    await page.evaluate(() => {
      void (window as unknown as { fail: Record<string, () => unknown> }).fail.rejected()
    })
    await page.evaluate(() => (window as unknown as { fail: Record<string, () => unknown> }).fail.feedback())
    const titles = async () => ((await h.api('GET', `/api/projects/${slug}/bugs`, { token })).body.data.bugs as { title: string }[]).map((b) => b.title)
    await expect.poll(titles, { timeout: 15_000 }).toEqual(expect.arrayContaining(['TypeError: sprite sheet is undefined', 'RangeError: level index out of range', 'The jump button stopped working']))
    // The browser reports a response a moment after the server filed it: wait for the third too.
    await expect.poll(() => sent.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3)
    for (const s of sent) expect(s).toMatchObject({ status: 200, allowOrigin: '*', type: expect.stringMatching(/^text\/plain/) })
    const bugs = (await h.api('GET', `/api/projects/${slug}/bugs`, { token })).body.data.bugs as { title: string; report_number: number }[]
    const uncaught = (await h.api('GET', `/api/projects/${slug}/bugs/${bugs.find((b) => b.title.startsWith('TypeError'))!.report_number}`, { token })).body.data.bug
    expect(uncaught).toMatchObject({ game_version: '0.9.0', player_id: 'web-player-1', source: 'system' })
    const occurrence = (await h.api('GET', `/api/projects/${slug}/bugs/${uncaught.report_number}/occurrences`, { token })).body.data.occurrences[0]
    expect(occurrence.client).toMatch(/^sentry\.javascript\.browser /)
  }, 60_000)

  it("files the player's OS as the platform and the browser apart, read from the page's user agent, with the game's environment (issue 29, items 1 and 5)", async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${gameServer.port}/`)
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' })
    const agent = await page.evaluate(() => navigator.userAgent)
    await page.evaluate(() => (window as unknown as { fail: Record<string, () => unknown> }).fail.uncaught())
    const search = async (q: string) => ((await h.api('GET', `/api/projects/${slug}/bugs?q=${encodeURIComponent(q)}`, { token })).body.data.bugs as { title: string }[]).map((b) => b.title)
    await expect.poll(() => search('browser:Chrome'), { timeout: 15_000 }).toContain('TypeError: sprite sheet is undefined')
    // Chromium runs on this machine's OS (Linux here); `javascript` is the SDK's language, not a platform.
    const os = /Windows/.test(agent) ? 'Windows' : /Mac OS X/.test(agent) ? 'macOS' : 'Linux'
    expect(await search(`platform:${os}`)).toContain('TypeError: sprite sheet is undefined')
    expect(await search('platform:javascript')).toEqual([])
    expect(await search('environment:itch')).toContain('TypeError: sprite sheet is undefined')
    const number = ((await h.api('GET', `/api/projects/${slug}/bugs?q=${encodeURIComponent('browser:Chrome sprite')}`, { token })).body.data.bugs as { report_number: number }[])[0]!.report_number
    const newest = (await h.api('GET', `/api/projects/${slug}/bugs/${number}/occurrences`, { token })).body.data.occurrences[0]
    expect(newest).toMatchObject({ platform: os, environment: 'itch', runtime: '', browser: expect.stringMatching(/^Chrome \d+\./) })
    // The report page shows them on the evidence.
    await h.page.goto(`/projects/${slug}/reports/${number}`)
    const facts = h.page.locator('.report-evidence dl.facts')
    await expect.poll(async () => (await facts.textContent()) ?? '', { timeout: 15_000 }).toContain('Environmentitch')
    expect(await facts.textContent()).toContain(`Platform${os}`)
    expect(await facts.textContent()).toMatch(/BrowserChrome \d+/)
    // Release health shows production by default; the game's own environment is a choice, remembered.
    await h.page.goto(`/projects/${slug}/analytics/releases`)
    const chooser = h.page.getByLabel('Environment')
    await expect.poll(() => chooser.inputValue(), { timeout: 15_000 }).toBe('production')
    await expect.poll(async () => chooser.locator('option').allTextContents(), { timeout: 15_000 }).toContain('itch')
    await chooser.selectOption('itch')
    await h.page.goto(`/projects/${slug}/analytics/releases`)
    await expect.poll(() => chooser.inputValue(), { timeout: 15_000 }).toBe('itch')
  }, 90_000)

  it('files three different errors from anonymous callbacks in one bundle as three reports, and stacks a repeat (issue 29, item 7)', async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${gameServer.port}/`)
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' })
    for (const which of [0, 1, 2, 0]) await page.evaluate((i) => (window as unknown as { fail: { anonymous: (i: number) => void } }).fail.anonymous(i), which)
    const messages = ['hud atlas is not loaded', 'enemy wave has no spawn points', 'save slot is read-only'].map((m) => `TypeError: ${m}`)
    const anonymous = async () =>
      ((await h.api('GET', `/api/projects/${slug}/bugs`, { token })).body.data.bugs as { title: string; occurrence_count: number }[])
        .filter((b) => messages.includes(b.title))
        .map((b) => [b.title, b.occurrence_count])
        .sort()
    await expect.poll(anonymous, { timeout: 15_000 }).toEqual([
      [messages[1], 1],
      [messages[0], 2],
      [messages[2], 1],
    ])
  }, 60_000)

  it('counts page loads that never end as healthy sessions: crash-free is (sessions - crashed) / sessions (issue 29, item 2)', async () => {
    type Version = { version: string; sessions: number; ended_sessions: number; crashed_sessions: number; crash_free_rate: number | null }
    const health = async () => ((await h.api('GET', `/api/projects/${slug}/release-health`, { token })).body.data.versions as Version[]).find((v) => v.version === '0.9.0')
    const before = { sessions: (await health())?.sessions ?? 0, crashed: (await health())?.crashed_sessions ?? 0 }
    // Three players load the game and play without a crash: the browser SDK sends `status: ok` and
    // never `exited` (a tab is closed, not ended); a fourth crashes (an unhandled error marks its session crashed).
    for (let i = 0; i < 4; i++) {
      const page = await (await h.newContext()).newPage()
      await page.goto(`http://localhost:${gameServer.port}/`)
      await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' })
      if (i === 3) await page.evaluate(() => (window as unknown as { fail: Record<string, () => unknown> }).fail.uncaught())
    }
    await expect.poll(async () => (await health())?.sessions ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(before.sessions + 4)
    await expect.poll(async () => (await health())?.crashed_sessions ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(before.crashed + 1)
    const v = (await health())!
    // Pages that crashed are the only ended ones; the healthy ones count all the same.
    expect(v.crashed_sessions).toBeLessThan(v.sessions)
    expect(v.crash_free_rate).toBe(Math.round(((v.sessions - v.crashed_sessions) / v.sessions) * 1e4) / 1e4)
    expect(v.crash_free_rate).toBeGreaterThan(0)
  }, 60_000)
})
