/**
 * Browser-test harness: the real server (from source) on a free port and a temp data dir, driven by
 * `playwright-core` over Debian's Chromium.
 *
 * Usage (a file `test/browser/<name>.test.ts`):
 *
 *   import { afterAll, beforeAll, expect, it } from 'vitest'
 *   import { describeBrowser, startBrowser, type BrowserHarness } from './harness'
 *
 *   describeBrowser('the projects screen', () => {
 *     let h: BrowserHarness
 *     beforeAll(async () => { h = await startBrowser() })
 *     afterAll(() => h?.close())
 *
 *     it('lists a new project', async () => {
 *       const me = await h.signUp()                      // API signup with the web cookie, in h.page's context
 *       await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Demo' } })
 *       await h.page.goto(`${h.baseUrl}/`)
 *       await expect.poll(() => h.page.getByRole('link', { name: 'Demo' }).count()).toBe(1)
 *       await h.screenshot('projects')                   // test-artifacts/screenshots/projects.png
 *     })
 *   })
 *
 * - `describeBrowser` is `describe`, or `describe.skip` with a printed reason when no Chromium is
 *   found (`GLITCHBOX_CHROMIUM`, else `/usr/bin/chromium`, `chromium`, `chromium-browser` on PATH).
 * - `startBrowser({ env })`: extra server environment. Rate limits are off by default (a dashboard
 *   page load makes many requests from one IP); pass `GLITCHBOX_RATE_LIMIT_*` to test them.
 *   `GLITCHBOX_PUBLIC_URL` is the server's own URL, so `Origin` checks and mailed links point at it.
 * - `h.page` is a page in a fresh browser context; `h.newContext()` gives another, cookie-less one
 *   (an anonymous visitor); contexts and pages are closed with the harness.
 * - `h.signUp({ email?, password?, name? })` posts `/api/auth/signup` with `X-Glitchbox-Client: web`
 *   through the context's request API, so the `glitchbox_session` cookie lands in the browser; it
 *   returns the session (`token` for Bearer calls) and the password. `h.signIn(...)` does the same
 *   through `/api/auth/login`.
 * - `h.api(method, path, { body, token, apiKey, headers })` is a plain `fetch` (no cookies) that
 *   returns `{ status, body }`; handy for fixtures (projects, SDK submits) without clicking.
 * - `h.mails(to?)` reads the outbox (no SMTP in tests), newest last, to follow mailed links.
 * - `h.rows(sql, ...params)` reads the server's database (`?` placeholders, SQL both engines read),
 *   shaped as `sqlRows` gives them; `h.serverEnv` points a CLI command (`runCli`) at the same data.
 * - In the suite's PostgreSQL mode (test/helpers/pg-engine.ts) the server runs on a database cloned
 *   from the migrated template, dropped at close().
 * - `h.screenshot(name)` saves `test-artifacts/screenshots/<name>.png` (full page).
 * - `h.serverLog()` gives the server's output so far, for failure messages.
 * - `h.close()` closes the browser, stops the server and removes the data dir.
 *
 * Find elements by role and label (web/README.md, "Conventions"); those names are the contract.
 */
import { Database } from 'bun:sqlite'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { describe, vi } from 'vitest'
import { createTestDatabase, dropTestDatabase, nextTestDatabase, TEST_SECRET_KEY, testPgServer } from '../helpers/pg-engine'
import { freePort, ROOT, tempDataDir } from '../helpers/server-process'
import { pgRows } from '../helpers/sql-rows'

export const SCREENSHOT_DIR = join(ROOT, 'test-artifacts', 'screenshots')

/** The Chromium executable to drive, or null when none is installed. */
export function findChromium(): string | null {
  const candidates = [process.env.GLITCHBOX_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']
  for (const c of candidates) if (c && existsSync(c)) return c
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = Bun.which(name)
    if (found) return found
  }
  return null
}

export const CHROMIUM = findChromium()

/**
 * How long the server may take to answer /health. On PostgreSQL the server and its job thread each open
 * a pool and check the migrations: with eight test runs on two cores that took ~40 s (SQLite: ~17 s).
 */
const SERVER_START_MS = 90_000

/**
 * Each browser file's timeouts, set as it is collected (vi.setConfig lasts one file, and this module is
 * evaluated once per worker): its beforeAll starts the server and Chromium, so hooks without a timeout
 * of their own get room for both; a test drives a real page, where a step of seconds on a quiet machine
 * took over 30 s with three test files at once on two cores (the /docs reference, at 30 s).
 */
const browserTimeouts = () => vi.setConfig({ hookTimeout: SERVER_START_MS + 60_000, testTimeout: 120_000 })

/** `describe` when Chromium is available, otherwise `describe.skip` with the reason printed once. */
export const describeBrowser: typeof describe = CHROMIUM
  ? (((...args: unknown[]) => {
      browserTimeouts()
      return (describe as (...a: unknown[]) => unknown)(...args)
    }) as unknown as typeof describe)
  : (((name: string, ...rest: unknown[]) => {
      console.warn(`[browser tests skipped] "${name}": no Chromium found (set GLITCHBOX_CHROMIUM or install chromium)`)
      return (describe.skip as (...a: unknown[]) => unknown)(name, ...rest)
    }) as unknown as typeof describe)

export interface SignedUp {
  token: string
  user_id: string
  email: string
  name: string
  password: string
}

export interface ApiAnswer {
  status: number
  headers: Headers
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

export interface BrowserHarness {
  baseUrl: string
  dataDir: string
  /** The server's data directory and database, for a CLI command on the same data. */
  serverEnv: Record<string, string>
  browser: Browser
  context: BrowserContext
  page: Page
  newContext(): Promise<BrowserContext>
  signUp(o?: { email?: string; password?: string; name?: string }): Promise<SignedUp>
  signIn(o: { email: string; password: string }, context?: BrowserContext): Promise<SignedUp>
  api(method: string, path: string, o?: { body?: unknown; token?: string; apiKey?: string; headers?: Record<string, string> }): Promise<ApiAnswer>
  mails(to?: string): Promise<{ to: string; subject: string; text: string }[]>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  rows<T = Record<string, any>>(sql: string, ...params: (string | number | null)[]): Promise<T[]>
  screenshot(name: string, page?: Page): Promise<string>
  serverLog(): string
  close(): Promise<void>
}

let counter = 0

/** Starts the server and Chromium; see the comment at the top of this file. */
export async function startBrowser(o: { env?: Record<string, string> } = {}): Promise<BrowserHarness> {
  if (!CHROMIUM) throw new Error('no Chromium found')
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const dataDir = tempDataDir()
  const pgDatabase = testPgServer() ? nextTestDatabase() : null
  const databaseUrl = pgDatabase ? `${testPgServer()}/${pgDatabase}` : null
  if (pgDatabase) await createTestDatabase(pgDatabase)
  const serverEnv: Record<string, string> = { GLITCHBOX_DATA_DIR: dataDir, ...(databaseUrl && { GLITCHBOX_DATABASE_URL: databaseUrl, GLITCHBOX_SECRET_KEY: TEST_SECRET_KEY }) }
  let log = ''
  // The same command line as `npm start`.
  const proc = Bun.spawn([process.execPath, '--max-http-header-size=65536', join(ROOT, 'src/main.ts'), 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...serverEnv,
      GLITCHBOX_PUBLIC_URL: baseUrl,
      GLITCHBOX_LOG_LEVEL: 'warn',
      GLITCHBOX_RATE_LIMIT_GLOBAL: '0',
      GLITCHBOX_RATE_LIMIT_PUBLIC: '0',
      GLITCHBOX_RATE_LIMIT_AUTH: '0',
      ...o.env,
    },
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder()
    for await (const chunk of stream) log += decoder.decode(chunk)
  }
  void collect(proc.stdout)
  void collect(proc.stderr)

  const stopServer = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGTERM')
      const done = await Promise.race([proc.exited.then(() => true), Bun.sleep(5000).then(() => false)])
      if (!done) proc.kill(9)
      await proc.exited
    }
    rmSync(dataDir, { recursive: true, force: true })
    if (pgDatabase) await dropTestDatabase(pgDatabase)
  }

  const deadline = Date.now() + SERVER_START_MS
  for (;;) {
    if (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)) break
    if (proc.exitCode !== null || Date.now() > deadline) {
      await stopServer()
      throw new Error(`server did not start:\n${log}`)
    }
    await Bun.sleep(50)
  }

  let browser: Browser
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  } catch (err) {
    await stopServer()
    throw err
  }
  const contexts: BrowserContext[] = []
  // Uncaught exceptions in any page of this server fail the file at close(): a screen can break at run
  // time while its assertions still pass. Pages of other origins (a game a test serves) may fail on purpose.
  const pageErrors: string[] = []
  const newContext = async () => {
    const c = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 } })
    c.on('page', (p) => p.on('pageerror', (err) => p.url().startsWith(baseUrl) && pageErrors.push(`${p.url()}: ${err.stack ?? err.message}`)))
    contexts.push(c)
    return c
  }
  const context = await newContext()
  const page = await context.newPage()

  const sessionCall = async (path: string, data: Record<string, unknown>, ctx: BrowserContext, password: string) => {
    const res = await ctx.request.post(`${baseUrl}${path}`, { headers: { 'X-Glitchbox-Client': 'web', Origin: baseUrl }, data })
    const body = await res.json().catch(() => null)
    if (!res.ok()) throw new Error(`${path} answered ${res.status()}: ${JSON.stringify(body)}`)
    return { ...(body.data as Omit<SignedUp, 'password'>), password }
  }

  const api: BrowserHarness['api'] = async (method, path, a = {}) => {
    const headers: Record<string, string> = { ...a.headers }
    if (a.body !== undefined) headers['content-type'] = 'application/json'
    if (a.token) headers.authorization = `Bearer ${a.token}`
    if (a.apiKey) headers['x-api-key'] = a.apiKey
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: a.body === undefined ? undefined : JSON.stringify(a.body) })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // Not JSON (HTML, CSV): the text as it is.
    }
    return { status: res.status, headers: res.headers, body }
  }

  const rows: BrowserHarness['rows'] = async (text, ...params) => {
    if (databaseUrl) return pgRows(databaseUrl, text, ...params)
    const db = new Database(join(dataDir, 'glitchbox.db'), { readonly: true })
    try {
      return db.query(text).all(...params) as never
    } finally {
      db.close()
    }
  }

  return {
    baseUrl,
    dataDir,
    serverEnv,
    browser,
    context,
    page,
    newContext,
    signUp(s = {}) {
      const n = `${process.pid}-${Date.now()}-${++counter}`
      const password = s.password ?? 'browser-test-password'
      return sessionCall('/api/auth/signup', { email: s.email ?? `dev-${n}@studio.example`, password, name: s.name ?? 'Dana Dev' }, context, password)
    },
    signIn(s, ctx = context) {
      return sessionCall('/api/auth/login', { email: s.email, password: s.password }, ctx, s.password)
    },
    api,
    async mails(to) {
      const mails = await rows<{ to: string; subject: string; text: string }>('SELECT "to", subject, text FROM mail_outbox ORDER BY id')
      return to ? mails.filter((m) => m.to === to) : mails
    },
    rows,
    async screenshot(name, p = page) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true })
      const path = join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '-')}.png`)
      await p.screenshot({ path, fullPage: true })
      return path
    },
    serverLog: () => log,
    async close() {
      for (const c of contexts) await c.close().catch(() => {})
      await browser.close().catch(() => {})
      await stopServer()
      if (pageErrors.length) throw new Error(`uncaught errors in the browser:\n${pageErrors.join('\n\n')}`)
    },
  }
}
