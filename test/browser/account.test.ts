import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeBrowser, startBrowser, type BrowserHarness } from './harness'

const TIMEOUT = 15_000
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: TIMEOUT, interval: 100 })

describeBrowser('account flows in the browser: mailed links land on the web app', () => {
  let h: BrowserHarness
  beforeAll(async () => {
    h = await startBrowser()
    h.page.setDefaultTimeout(TIMEOUT)
  })
  afterAll(async () => {
    await h?.close()
  })

  /** The newest link of the mail to `to` whose URL contains `part`. */
  const linkIn = async (to: string, part: string) => {
    const links = (await h.mails(to)).flatMap((m) => m.text.match(/https?:\/\/\S+/g) ?? [])
    const found = links.filter((l) => l.includes(part)).at(-1)
    expect(found, `a mailed link containing ${part}`).toBeDefined()
    return found!
  }

  it('forgot password → mailed link → new password → sign in; the old session is signed out', async () => {
    const me = await h.signUp({ password: 'first-password-1' })
    const page = await (await h.newContext()).newPage()
    page.setDefaultTimeout(TIMEOUT)
    await page.goto(`${h.baseUrl}/forgot-password`)
    await page.getByLabel('Email').fill(me.email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await poll(() => page.getByRole('status').filter({ hasText: me.email }).count()).toBe(1)

    const link = await linkIn(me.email, '/reset-password?token=')
    expect(link.startsWith(`${h.baseUrl}/reset-password?token=`)).toBe(true)
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill('second-password-2')
    await page.getByLabel('Repeat the new password').fill('second-password-2')
    await h.screenshot('account-reset-password', page)
    await page.getByRole('button', { name: 'Set new password' }).click()
    await page.waitForURL(/\/login/)

    await page.getByLabel('Email').fill(me.email)
    await page.getByLabel('Password').fill('second-password-2')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL((u) => u.pathname === '/' || u.pathname.startsWith('/projects'))
    // The session from before the reset no longer works; the cookie of the new sign-in does.
    expect((await h.api('GET', '/api/auth/me', { token: me.token })).status).toBe(401)
    const res = await page.request.get(`${h.baseUrl}/api/auth/me`)
    expect(res.status()).toBe(200)
    expect((await res.json()).data.email).toBe(me.email)
    // The link was single-use.
    const reuse = await h.api('POST', '/api/auth/reset-password', { body: { token: new URL(link).searchParams.get('token'), new_password: 'third-password-3' } })
    expect(reuse.status).toBe(400)
  })

  it('the verification link opened in the browser shows the confirmation; opened again, an error', async () => {
    const me = await h.signUp()
    const link = await linkIn(me.email, '/api/auth/verify-email?token=')
    const page = await (await h.newContext()).newPage()
    page.setDefaultTimeout(TIMEOUT)
    await page.goto(link)
    expect(new URL(page.url()).pathname).toBe('/verify-email')
    await poll(() => page.getByRole('status').filter({ hasText: /verified/i }).count()).toBe(1)
    await h.screenshot('account-email-verified', page)
    expect((await h.api('GET', '/api/auth/me', { token: me.token })).body.data.email_verified).toBe(true)

    await page.goto(link)
    expect(new URL(page.url()).search).toBe('?status=invalid')
    await poll(() => page.getByRole('alert').count()).toBeGreaterThan(0)
  })

  it('signs out: the cookie is cleared and the dashboard asks to sign in again', async () => {
    const ctx = await h.newContext()
    const me = await h.signIn({ email: (await h.signUp()).email, password: 'browser-test-password' }, ctx)
    expect((await ctx.cookies()).some((c) => c.name === 'glitchbox_session' && c.value === me.token)).toBe(true)
    const out = await ctx.request.post(`${h.baseUrl}/api/auth/logout`, { headers: { Origin: h.baseUrl } })
    expect(out.status()).toBe(200)
    expect((await ctx.cookies()).some((c) => c.name === 'glitchbox_session')).toBe(false)
    const page = await ctx.newPage()
    await page.goto(`${h.baseUrl}/projects/new`)
    await page.waitForURL(/\/login/)
  })
})
