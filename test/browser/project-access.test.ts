// A project-limited member across every dashboard route and screen (issue 25). The owner invites an
// outside QA vendor from the team screen with access to one game of two; the vendor then sees only that
// game in the switcher, the project list and account screens, every screen of it works, and every
// screen of the other game is "Not found" without a word of its name or reports. The owner widens and
// narrows the access from the team screen's Projects dialog, and the vendor's switcher follows.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { BrowserContext, Page } from 'playwright-core'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

const ROUTES_FILE = fileURLToPath(new URL('../../web/app/routes.tsx', import.meta.url))
/** The dashboard's route patterns, read from its route table so a new screen is swept too. */
const routePaths = [...readFileSync(ROUTES_FILE, 'utf8').matchAll(/\{ path: '([^']+)', component: \w+(, public: true)?/g)].filter((m) => !m[2]).map((m) => m[1]!)
const A_NAME = 'Aurora Racer'
const B_NAME = 'Brimstone Kart'
const B_SECRETS = [B_NAME, 'Brimstone lava freezes the kart']
const VENDOR = 'qa@vendor.example'

describeBrowser('a member limited to one project', () => {
  let h: BrowserHarness
  let owner: SignedUp
  let vendor: SignedUp
  let vendorContext: BrowserContext
  let vendorPage: Page
  const slugs: Record<'a' | 'b', string> = { a: '', b: '' }
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })
  const settled = (page: Page) => poll(() => page.locator('.spinner, [aria-busy="true"]').count()).toBe(0)
  const switcherNames = async (page: Page) => (await page.locator('#project-switcher option').allTextContents()).filter((n) => n !== 'All projects')

  beforeAll(async () => {
    h = await startBrowser()
    owner = await h.signUp({ name: 'Olga Owner' })
    for (const [key, name, title] of [['a', A_NAME, 'Aurora drifts through the wall'], ['b', B_NAME, 'Brimstone lava freezes the kart']] as const) {
      const project = await h.api('POST', '/api/projects', { token: owner.token, body: { name } })
      slugs[key] = project.body.data.slug
      const apiKey = project.body.data.api_key
      expect((await h.api('POST', '/api/sessions/start', { body: { api_key: apiKey, session_token: `session-${key}-0001`, game_version: '1.0.0', platform: 'windows', player_id: 'p1' } })).status).toBeLessThan(300)
      expect((await h.api('POST', '/api/bugs/submit', { apiKey, body: { title, description: `${title}, every time`, player_id: 'p1', game_version: '1.0.0' } })).status).toBe(201)
    }
  })
  afterAll(() => h?.close())

  it('is invited from the team screen with access to the chosen project only', { timeout: 60_000 }, async () => {
    await h.page.goto('/team')
    await h.page.getByLabel('Email to invite').fill(VENDOR)
    await h.page.getByLabel('Only the projects chosen below').check()
    await h.page.getByLabel(A_NAME, { exact: true }).check()
    await h.screenshot('project-access-invite')
    await h.page.getByRole('button', { name: 'Send invitation' }).click()
    const pending = h.page.getByRole('table', { name: 'Pending invitations' })
    await poll(() => pending.getByRole('row', { name: new RegExp(VENDOR) }).textContent()).toContain(A_NAME)
    expect(await pending.getByRole('row', { name: new RegExp(VENDOR) }).textContent()).not.toContain(B_NAME)
    const invitation = async () => (await h.mails(VENDOR)).find((m) => m.text.includes('/invite?token='))!
    expect((await invitation()).text).toContain(`with access to ${A_NAME}`)

    // The vendor signs up in a browser of their own and opens the mailed link.
    vendorContext = await h.newContext()
    vendorPage = await vendorContext.newPage()
    vendor = await h.signUp({ email: VENDOR, name: 'Vic Vendor' })
    await h.signIn({ email: owner.email, password: owner.password })
    await h.signIn({ email: vendor.email, password: vendor.password }, vendorContext)
    await vendorPage.goto(/https?:\/\/\S+\/invite\?token=\S+/.exec((await invitation()).text)![0])
    await vendorPage.getByRole('button', { name: 'Accept invitation' }).click()
    await poll(() => vendorPage.getByRole('status').filter({ hasText: 'You joined' }).count()).toBe(1)
  })

  it('sees only that project in the switcher and the project list, and cannot create one', async () => {
    await vendorPage.goto('/')
    await poll(() => vendorPage.getByRole('list', { name: 'Projects' }).getByRole('link').allTextContents()).toEqual([A_NAME])
    expect(await switcherNames(vendorPage)).toEqual([A_NAME])
    const create = vendorPage.getByRole('button', { name: 'New project' })
    expect(await create.isDisabled()).toBe(true)
    // Disabled while the permissions load too ("Loading your permissions…"): wait for the reason.
    await poll(() => create.getAttribute('title')).toMatch(/only some projects/)
    await h.screenshot('project-access-vendor-projects', vendorPage)
  })

  it("works on every screen of its project and finds every screen of the other one not found, without a word of it", { timeout: 240_000 }, async () => {
    const fill = (pattern: string, slug: string) => pattern.replace(':slug', slug).replace(':number', '1').replace(':playerId', 'p1')
    const problems: string[] = []
    const projectRoutes = routePaths.filter((p) => p.includes(':slug'))
    expect(projectRoutes.length).toBeGreaterThan(20)
    for (const pattern of routePaths) {
      for (const slug of pattern.includes(':slug') ? [slugs.a, slugs.b] : [null]) {
        const path = slug ? fill(pattern, slug) : pattern
        await vendorPage.goto(path, { waitUntil: 'networkidle' })
        await settled(vendorPage)
        const text = (await vendorPage.textContent('body')) ?? ''
        for (const secret of B_SECRETS) if (text.includes(secret)) problems.push(`${path}: shows "${secret}"`)
        const notFound = await vendorPage.locator('.error-state').filter({ hasText: 'Not found' }).count()
        if (slug === slugs.a && notFound) problems.push(`${path}: not found in the vendor's own project`)
        if (slug === slugs.b && !notFound) problems.push(`${path}: no "Not found" for the other project`)
      }
    }
    await vendorPage.goto(`/projects/${slugs.b}/reports`)
    await settled(vendorPage)
    await h.screenshot('project-access-vendor-other-project', vendorPage)
    expect(problems).toEqual([])
  })

  it("reads its own project's reports, and its switcher follows when the owner widens and narrows the access on the team screen", { timeout: 60_000 }, async () => {
    await vendorPage.goto(`/projects/${slugs.a}/reports`)
    await poll(() => vendorPage.getByRole('link', { name: 'Aurora drifts through the wall' }).count()).toBe(1)

    await h.page.goto('/team')
    const row = h.page.getByRole('row', { name: /Vic Vendor/ })
    await poll(() => row.textContent()).toContain(A_NAME)
    await row.getByRole('button', { name: 'Projects of Vic Vendor' }).click()
    const dialog = h.page.getByRole('dialog', { name: 'Projects of Vic Vendor' })
    await dialog.getByLabel(B_NAME, { exact: true }).check()
    await h.screenshot('project-access-dialog')
    await dialog.getByRole('button', { name: 'Save projects' }).click()
    await poll(() => row.textContent()).toContain(`${A_NAME}, ${B_NAME}`)
    await vendorPage.goto('/')
    await poll(() => switcherNames(vendorPage)).toEqual([A_NAME, B_NAME])
    await vendorPage.goto(`/projects/${slugs.b}/reports`)
    await poll(() => vendorPage.getByRole('link', { name: 'Brimstone lava freezes the kart' }).count()).toBe(1)

    // Unticking the only chosen project leaves nothing to save; the owner takes B away again.
    await row.getByRole('button', { name: 'Projects of Vic Vendor' }).click()
    await dialog.getByLabel(A_NAME, { exact: true }).uncheck()
    await dialog.getByLabel(B_NAME, { exact: true }).uncheck()
    expect(await dialog.getByRole('button', { name: 'Save projects' }).isDisabled()).toBe(true)
    await dialog.getByLabel(A_NAME, { exact: true }).check()
    await dialog.getByRole('button', { name: 'Save projects' }).click()
    await poll(() => row.textContent()).not.toContain(B_NAME)
    await vendorPage.goto('/')
    await poll(() => switcherNames(vendorPage)).toEqual([A_NAME])
    await vendorPage.goto(`/projects/${slugs.b}/reports`)
    await settled(vendorPage)
    expect(await vendorPage.locator('.error-state').filter({ hasText: 'Not found' }).count()).toBe(1)
  })
})
