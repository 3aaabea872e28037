// An operator's first hour (issue 25) in the browser: no verify nag without SMTP, the slug changed in
// Settings with its old URLs redirecting, the SDK key rotated with a grace period, and the setup
// screen's Sentry DSN, snippets and SDK budget warning.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeBrowser, startBrowser, type BrowserHarness, type SignedUp } from './harness'

const TIMEOUT = 15_000
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: TIMEOUT, interval: 100 })
/** The SDK budget of this server: small, so a test can run past it. */
const BUDGET = 5

describeBrowser('an operator\'s first hour in the browser', () => {
  let h: BrowserHarness
  let owner: SignedUp
  beforeAll(async () => {
    h = await startBrowser({ env: { GLITCHBOX_RATE_LIMIT_PUBLIC: String(BUDGET) } })
    h.page.setDefaultTimeout(TIMEOUT)
    owner = await h.signUp({ name: 'Olivia Ops' })
  })
  afterAll(async () => {
    await h?.close()
  })

  const newProject = async (name: string) => {
    const res = await h.api('POST', '/api/projects', { token: owner.token, body: { name } })
    expect(res.status).toBe(201)
    return res.body.data as { slug: string; api_key: string }
  }
  /** The code element showing the current SDK key (the settings section around it has the same name). */
  const keyShown = () => h.page.getByLabel('SDK key', { exact: true }).and(h.page.locator('code')).textContent()
  const submit = (apiKey: string) => h.api('POST', '/api/bugs/submit', { apiKey, body: { title: `Crash ${crypto.randomUUID()}`, description: 'It broke.' } })

  it('shows no verify banner on a server without SMTP: the first account is verified, a later one is not nagged', async () => {
    expect(owner.email).toBeTruthy()
    expect((await h.api('GET', '/api/auth/me', { token: owner.token })).body.data.email_verified).toBe(true)
    const second = { email: `artist-${Date.now()}@studio.example`, password: 'second-password-2' }
    expect((await h.api('POST', '/api/auth/signup', { body: second })).body.data.email_verified).toBe(false)
    const ctx = await h.newContext()
    await h.signIn(second, ctx)
    const page = await ctx.newPage()
    page.setDefaultTimeout(TIMEOUT)
    await page.goto('/')
    await poll(() => page.getByRole('button', { name: /account menu/ }).count()).toBe(1)
    expect(await page.getByRole('region', { name: 'Email verification' }).count()).toBe(0)
  })

  it('changes the slug in Settings; the old tracker and dashboard URLs lead to the new ones', async () => {
    const { slug: old } = await newProject('Moon Lander')
    expect((await h.api('PUT', `/api/projects/${old}/tracker-settings`, { token: owner.token, body: { enabled: true } })).status).toBe(200)
    const page = h.page
    await page.goto(`/projects/${old}/settings/general`)
    const field = page.getByLabel('Slug', { exact: true })
    await poll(() => field.inputValue()).toBe(old)
    await field.fill('Moon-Lander')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.waitForURL((u) => u.pathname === '/projects/moon-lander/settings/general')
    await poll(() => page.getByRole('status').filter({ hasText: 'the old address redirects to moon-lander for 90 days' }).count()).toBe(1)
    await poll(() => field.inputValue()).toBe('moon-lander')
    await h.screenshot('first-hour-slug-changed')

    // A player's bookmark of the old tracker URL: the browser follows the 301.
    const visitor = await (await h.newContext()).newPage()
    visitor.setDefaultTimeout(TIMEOUT)
    const answer = await visitor.goto(`/tracker/${old}?page=1`)
    expect(new URL(visitor.url()).pathname + new URL(visitor.url()).search).toBe('/tracker/moon-lander?page=1')
    expect(answer!.status()).toBe(200)
    expect(answer!.request().redirectedFrom()!.url()).toContain(`/tracker/${old}`)
    await poll(() => visitor.getByRole('heading', { level: 1 }).textContent()).toContain('known issues')

    // A teammate's link into the dashboard with the old slug ends on the new one.
    await page.goto(`/projects/${old}/settings/general`)
    await page.waitForURL((u) => u.pathname === '/projects/moon-lander/settings/general')
    await poll(() => field.inputValue()).toBe('moon-lander')
  })

  it('rotates the SDK key with a 7-day grace: both keys are shown, and both work until it ends', async () => {
    const { slug, api_key: old } = await newProject('Cave Runner')
    const page = h.page
    await page.goto(`/projects/${slug}/settings/general`)
    await poll(keyShown).toBe(old)
    await page.getByRole('button', { name: 'Rotate key' }).click()
    const dialog = page.getByRole('dialog', { name: 'Rotate the SDK key?' })
    await dialog.getByLabel('Grace period').selectOption('7')
    await dialog.getByLabel(`Type ${slug} to confirm`).fill(slug)
    await dialog.getByRole('button', { name: 'Rotate key' }).click()
    await poll(() => page.getByLabel('Previous SDK key', { exact: true }).textContent()).toBe(old)
    const fresh = (await keyShown())!
    expect(fresh).toMatch(/^sk_live_/)
    expect(fresh).not.toBe(old)
    await poll(() => page.getByText(/^The previous key still works until /).count()).toBe(1)
    await h.screenshot('first-hour-key-rotated')

    // Shipped builds with the old key still report; updated ones use the new key.
    expect([(await submit(old)).status, (await submit(fresh)).status]).toEqual([201, 201])
    const read = (await h.api('GET', `/api/projects/${slug}`, { token: owner.token })).body.data
    expect(read).toMatchObject({ api_key: fresh, previous_api_key: old })
    expect(new Date(read.previous_api_key_expires_at).getTime() - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000)

    // The setup screen shows both keys too.
    await page.goto(`/projects/${slug}/setup`)
    await poll(() => page.getByLabel('Previous SDK key', { exact: true }).textContent()).toBe(old)
    await poll(keyShown).toBe(fresh)
  })

  it("shows the DSN with each engine's snippet, ticks the first Sentry event and warns when the SDK budget turned players away", async () => {
    const { slug, api_key: key } = await newProject('Sky Forge')
    const project = (await h.api('GET', `/api/projects/${slug}`, { token: owner.token })).body.data
    const page = h.page
    await page.goto(`/projects/${slug}/setup`)
    await poll(() => page.getByText(project.dsn, { exact: true }).count()).toBe(1)
    const tabs = page.getByRole('tablist', { name: 'Sentry SDK snippet' })
    for (const [tab, block, text] of [
      ['Unity', 'Unity Sentry options', `options.Dsn = "${project.dsn}";`],
      ['Unreal', 'Unreal DefaultEngine.ini', `DataRouterUrl="${h.baseUrl}/api/${project.dsn_id}/unreal/${key}/"`],
      ['Godot', 'Godot project settings', `options/dsn="${project.dsn}"`],
      ['JavaScript', 'JavaScript Sentry init', `dsn: "${project.dsn}"`],
    ] as const) {
      await tabs.getByRole('tab', { name: tab, exact: true }).click()
      await poll(() => page.getByLabel(block, { exact: true }).textContent()).toContain(text)
    }
    await poll(() => page.getByLabel('session calls', { exact: true }).textContent()).toContain('/api/sessions/start')
    const sentryStep = page.getByRole('heading', { name: /Receive the first Sentry event/ })
    await poll(() => sentryStep.textContent()).toContain('(to do)')

    // A Sentry SDK's first event, sent to the DSN, ticks its step.
    const event = await h.api('POST', `/api/${project.dsn_id}/store/?sentry_key=${key}&sentry_version=7`, { body: { message: 'Boss fight crash', level: 'fatal' } })
    expect(event.status).toBe(200)
    await page.getByRole('button', { name: 'Check again' }).click()
    await poll(() => sentryStep.textContent()).toContain('(done)')

    // Players behind one address run past the SDK budget: the checklist says how many and how to raise it.
    const statuses = []
    for (let i = 0; i < 2 * BUDGET + 2; i++) statuses.push((await submit(key)).status)
    const refused = statuses.filter((s) => s === 429).length
    expect(refused).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Check again' }).click()
    const warning = page.getByRole('alert').filter({ hasText: 'SDK rate limit' })
    await poll(() => warning.textContent()).toContain(`refused ${refused} request`)
    expect(await warning.textContent()).toContain('GLITCHBOX_RATE_LIMIT_PUBLIC=300')
    await h.screenshot('first-hour-setup-sentry-budget')
  })
})
