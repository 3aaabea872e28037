// Every dashboard route, visited by the owner and by a member whose every permission was removed: no
// uncaught error (the harness fails the file on one), the owner sees no error state, and the member
// never sees the API's raw refusal ("you need the bugs.view permission"): what they lack is explained
// in words or hidden.
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { BrowserContext } from 'playwright-core'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'
import { dashboardRoutes } from './route-table'

/** The patterns of the dashboard's screens behind sign-in. */
const routePaths = dashboardRoutes.filter((r) => !r.public).map((r) => r.path)
const RAW_REFUSAL = /you need the [a-z]+\.[a-z]+ permission/

describeBrowser('every dashboard screen', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  let memberContext: BrowserContext
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 })

  beforeAll(async () => {
    h = await startBrowser()
    me = await h.signUp({ name: 'Sam Sweep' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Sweep Racer' } })
    slug = project.body.data.slug
    const apiKey = project.body.data.api_key
    expect((await h.api('POST', '/api/sessions/start', { body: { api_key: apiKey, session_token: 'sweep-session-1', game_version: '1.0.0', platform: 'windows', player_id: 'p1' } })).status).toBeLessThan(300)
    expect((await h.api('POST', '/api/bugs/submit', { apiKey, body: { title: 'Kart drifts forever', description: 'Drift never ends on ice', player_id: 'p1', game_version: '1.0.0' } })).status).toBe(201)
    // A member with every permission turned off, signed in in a context of their own.
    const invite = await h.api('POST', '/api/account/invites', { token: me.token, body: { email: 'nobody@sweep.example', role: 'member' } })
    memberContext = await h.newContext()
    const member = await h.signUp({ email: 'nobody@sweep.example' })
    await h.signIn({ email: me.email, password: me.password })
    expect((await h.api('POST', '/api/account/invites/accept', { token: member.token, body: { token: invite.body.data.token } })).status).toBe(200)
    const off = await h.api('PUT', `/api/account/members/${member.user_id}/permissions`, { token: me.token, body: { permissions: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) } })
    expect(off.status).toBe(200)
    await h.signIn({ email: member.email, password: member.password }, memberContext)
  })
  afterAll(() => h?.close())

  const fill = (pattern: string) => pattern.replace(':slug', slug).replace(':number', '1').replace(':playerId', 'p1')

  it('reads the route table', () => {
    expect(routePaths.length).toBeGreaterThan(25)
  })

  it('shows the owner every screen without an error state', { timeout: 120_000 }, async () => {
    const problems: string[] = []
    for (const pattern of routePaths) {
      const path = fill(pattern)
      await h.page.goto(path)
      await poll(() => h.page.locator('.spinner, [aria-busy="true"]').count()).toBe(0)
      const errors = await h.page.locator('.error-state').allTextContents()
      if (errors.length) problems.push(`${path}: ${errors.join(' | ')}`)
    }
    expect(problems).toEqual([])
  })

  it('never shows a member without permissions a raw refusal', { timeout: 120_000 }, async () => {
    const page = await memberContext.newPage()
    const problems: string[] = []
    for (const pattern of routePaths) {
      const path = fill(pattern)
      await page.goto(path)
      await poll(() => page.locator('.spinner, [aria-busy="true"]').count()).toBe(0)
      const text = (await page.textContent('body')) ?? ''
      if (RAW_REFUSAL.test(text)) problems.push(`${path}: ${text.match(RAW_REFUSAL)![0]}`)
      // A screen they may not read says so, naming the permission in words, with nothing to retry.
      for (const state of await page.locator('.error-state').all()) {
        const said = (await state.textContent()) ?? ''
        if (!/^Not available to you.*You need the “[^”]+” permission/.test(said) || (await state.getByRole('button', { name: 'Try again' }).count())) problems.push(`${path}: ${said}`)
      }
    }
    // The list's actions are disabled buttons saying which permission is missing, not links into a refusal.
    await page.goto(`/projects/${slug}/reports`)
    await poll(() => page.locator('.error-state').count()).toBe(1)
    for (const [name, permission] of [['New report', 'File reports'], ['Import', 'File reports'], ['Export CSV', 'View reports'], ['Save view', 'View reports']]) {
      const button = page.getByRole('button', { name, exact: true })
      expect(await button.isDisabled(), name).toBe(true)
      // Disabled while the permissions load too ("Loading your permissions…"): wait for the reason.
      await poll(() => button.getAttribute('title')).toContain(`“${permission}”`)
    }
    await h.screenshot('member-without-permissions-reports', page)
    expect(problems).toEqual([])
  })
})
