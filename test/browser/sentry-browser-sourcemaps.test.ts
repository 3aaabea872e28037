// @sentry/browser in Chromium with an uploaded source map (issue 32): a minified HTML5 game given a
// debug id by `sentry-cli sourcemaps inject` and uploaded with `sourcemaps upload` (the real binary)
// throws; the SDK names the debug id, and the report shows the original function, file, line and
// source instead of the minified position.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { minifiedBuild, runSentryCli, SENTRY_CLI as CLI } from '../helpers/sentry-cli'
import { freePort } from '../helpers/server-process'
import { removeTempDir, tempDir } from '../helpers/temp-dirs'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'

const FIXTURE = join(import.meta.dirname, 'fixtures', 'sentry-mapped-game.js')
describeBrowser('@sentry/browser with a source map uploaded by sentry-cli', () => {
  let h: BrowserHarness
  let gameServer: ReturnType<typeof Bun.serve>
  let slug = ''
  let token = ''
  let dir = ''

  beforeAll(async () => {
    h = await startBrowser({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: '0' } })
    token = (await h.signUp()).token
    slug = (await h.api('POST', '/api/projects', { token, body: { name: 'Mapped Web Game' } })).body.data.slug
    const { dsn } = (await h.api('GET', `/api/projects/${slug}`, { token })).body.data
    dir = tempDir('browser-sourcemaps')
    mkdirSync(join(dir, 'dist'))
    const js = await minifiedBuild(FIXTURE, join(dir, 'dist'), { naming: 'game.js', target: 'browser' })
    const apiToken = (await h.api('POST', '/api/auth/api-tokens', { token, body: { name: 'CI', scopes: ['debug_files.upload'], project: slug } })).body.data.token as string
    for (const args of [['sourcemaps', 'inject', 'dist'], ['sourcemaps', 'upload', '--org', 'studio', '--project', slug, 'dist']]) {
      const { code, out } = await runSentryCli([CLI, ...args], dir, { SENTRY_URL: h.baseUrl, SENTRY_AUTH_TOKEN: apiToken })
      expect(code, out).toBe(0)
    }
    const script = readFileSync(js, 'utf8')
    const page = `<!doctype html><html><head><title>Web game</title></head><body><script>window.GAME_DSN = ${JSON.stringify(dsn)}</script><script src="/game.js"></script></body></html>`
    gameServer = Bun.serve({
      hostname: '127.0.0.1',
      port: await freePort(),
      fetch: (req) => (new URL(req.url).pathname === '/game.js' ? new Response(script, { headers: { 'content-type': 'text/javascript' } }) : new Response(page, { headers: { 'content-type': 'text/html' } })),
    })
  }, 180_000)

  afterAll(async () => {
    gameServer?.stop(true)
    await h?.close()
    if (dir) removeTempDir(dir)
  })

  it("files the minified crash with the original function, file, line and source line", async () => {
    const page = await (await h.newContext()).newPage()
    await page.goto(`http://localhost:${gameServer.port}/`)
    await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' })
    await page.evaluate(() => (window as unknown as { fail: Record<string, () => unknown> }).fail.sprites())
    const bugs = async () => (await h.api('GET', `/api/projects/${slug}/bugs`, { token })).body.data.bugs as { title: string; report_number: number; culprit: string }[]
    await expect.poll(async () => (await bugs()).map((b) => b.title), { timeout: 15_000 }).toEqual(['TypeError: sprite sheet is undefined'])
    const [bug] = await bugs()
    expect(bug!.culprit).toBe('loadSpriteSheet (sentry-mapped-game.js)')
    const occurrence = (await h.api('GET', `/api/projects/${slug}/bugs/${bug!.report_number}/occurrences`, { token })).body.data.occurrences[0]
    const line = readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes("throw new TypeError('sprite sheet")) + 1
    expect(occurrence.description).toMatch(new RegExp(`at loadSpriteSheet \\([^)]*sentry-mapped-game\\.js:${line}:\\d+\\) \\[in app\\]`))
    expect(occurrence.description).toContain(`${line} >   if (!sheet) throw new TypeError('sprite sheet is undefined')`)
  }, 60_000)
})
