import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { ACCEPTING_SMTP } from '../auth/auth-helpers'
import { sqlRows } from '../helpers/sql-rows'

type T = ReturnType<typeof createTestApp>
const HOUR = 3_600_000

const mailsTo = async (t: T, to: string) => (await sqlRows(t, 'SELECT subject, text FROM mail_outbox WHERE "to" = ? ORDER BY id', to))

/** The token of the newest reset link mailed to `to`. */
async function resetToken(t: T, to: string): Promise<string> {
  const mail = (await mailsTo(t, to)).filter((m) => m.subject.includes('Reset')).at(-1)
  expect(mail).toBeDefined()
  const m = /http:\/\/glitchbox\.test\/reset-password\?token=(\S+)/.exec(mail!.text)
  expect(m).not.toBeNull()
  return decodeURIComponent(m![1]!)
}

const login = (t: T, email: string, password: string) => t.request('POST', '/api/auth/login', { body: { email, password } })

describe('password reset', () => {
  let t: T
  beforeEach(() => {
    t = createTestApp()
  })
  afterEach(() => t.close())

  it('answers the same 200 whether or not the account exists, and mails only a real account', async () => {
    const { user } = await createUser(t, { password: 'old-password-1' })
    const known = await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email.toUpperCase() } })
    const unknown = await t.request('POST', '/api/auth/forgot-password', { body: { email: 'nobody@example.com' } })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(unknown.body).toEqual(known.body)
    expect(await mailsTo(t, 'nobody@example.com')).toHaveLength(0)
    expect(await mailsTo(t, user.email)).toHaveLength(1)
    // Only the hash of the token is stored.
    const token = await resetToken(t, user.email)
    const stored = (await sqlRows(t, 'SELECT token_hash FROM password_resets'))
    expect(stored).toHaveLength(1)
    expect(stored[0]!.token_hash).not.toContain(token)
  })

  it('400s a malformed email', async () => {
    const res = await t.request('POST', '/api/auth/forgot-password', { body: { email: 'not-an-email' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/email/)
  })

  it('sets the new password, signs out every session, and the link works once', async () => {
    const { user, token: session } = await createUser(t, { password: 'old-password-1' })
    const other = await login(t, user.email, 'old-password-1')
    expect(other.status).toBe(200)
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    const token = await resetToken(t, user.email)

    const reset = await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'new-password-1' } })
    expect(reset.status).toBe(200)
    expect(reset.body.ok).toBe(true)
    expect((await login(t, user.email, 'old-password-1')).status).toBe(401)
    expect((await login(t, user.email, 'new-password-1')).status).toBe(200)
    for (const s of [session, other.body.data.token]) expect((await t.request('GET', '/api/auth/me', { token: s })).status).toBe(401)

    const again = await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'third-password-1' } })
    expect(again.status).toBe(400)
    expect(again.body.error).toMatch(/invalid, expired or already used/)
    expect((await login(t, user.email, 'new-password-1')).status).toBe(200)
  })

  it('expires the link after one hour (FakeClock)', async () => {
    const { user } = await createUser(t, { password: 'old-password-1' })
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    const token = await resetToken(t, user.email)
    t.clock.advance(HOUR - 1000)
    await t.request('POST', '/api/auth/forgot-password', { body: { email: 'x@example.com' } })
    t.clock.advance(2000)
    const late = await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'new-password-1' } })
    expect(late.status).toBe(400)
    expect((await login(t, user.email, 'old-password-1')).status).toBe(200)
  })

  it('is still valid just before the hour is up', async () => {
    const { user } = await createUser(t, { password: 'old-password-1' })
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    const token = await resetToken(t, user.email)
    t.clock.advance(HOUR - 1000)
    expect((await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'new-password-1' } })).status).toBe(200)
  })

  it('400s an unknown token and a short password (the token stays usable after the short one)', async () => {
    const { user } = await createUser(t, { password: 'old-password-1' })
    expect((await t.request('POST', '/api/auth/reset-password', { body: { token: 'made-up', new_password: 'new-password-1' } })).status).toBe(400)
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    const token = await resetToken(t, user.email)
    const short = await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'short' } })
    expect(short.status).toBe(400)
    expect(short.body.error).toMatch(/new_password/)
    expect((await t.request('POST', '/api/auth/reset-password', { body: { token, new_password: 'long-enough-1' } })).status).toBe(200)
  })

  it('a newer link replaces the older one; a second request within a minute sends nothing', async () => {
    const { user } = await createUser(t, { password: 'old-password-1' })
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    const first = await resetToken(t, user.email)
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    expect(await mailsTo(t, user.email)).toHaveLength(1)
    t.clock.advance(61_000)
    await t.request('POST', '/api/auth/forgot-password', { body: { email: user.email } })
    expect(await mailsTo(t, user.email)).toHaveLength(2)
    const second = await resetToken(t, user.email)
    expect(second).not.toBe(first)
    expect((await t.request('POST', '/api/auth/reset-password', { body: { token: first, new_password: 'new-password-1' } })).status).toBe(400)
    expect((await t.request('POST', '/api/auth/reset-password', { body: { token: second, new_password: 'new-password-1' } })).status).toBe(200)
  })

  it('both routes count toward the auth rate limit', async () => {
    const s = createTestApp({ env: { GLITCHBOX_RATE_LIMIT_AUTH: '2' } })
    try {
      const ip = '10.77.0.1'
      for (let i = 0; i < 2; i++) expect((await s.request('POST', '/api/auth/forgot-password', { ip, body: { email: 'a@example.com' } })).status).toBe(200)
      expect((await s.request('POST', '/api/auth/reset-password', { ip, body: { token: 'x', new_password: 'long-enough-1' } })).status).toBe(429)
    } finally {
      s.close()
    }
  })
})

describe('the verification link opened in a browser', () => {
  let t: T
  beforeEach(() => {
    t = createTestApp({ transport: ACCEPTING_SMTP })
  })
  afterEach(() => t.close())

  const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

  async function signupToken(email: string) {
    await t.request('POST', '/api/auth/signup', { body: { email, password: 'long-enough-1' } })
    const mail = (await mailsTo(t, email)).at(-1)!
    return decodeURIComponent(/verify-email\?token=(\S+)/.exec(mail.text)![1]!)
  }

  it('redirects 303 to /verify-email?status=ok and verifies the address', async () => {
    const token = await signupToken('v@example.com')
    const res = await t.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`, { headers: { accept: BROWSER_ACCEPT } })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/verify-email?status=ok')
    const login = await t.request('POST', '/api/auth/login', { body: { email: 'v@example.com', password: 'long-enough-1' } })
    expect(login.body.data.email_verified).toBe(true)
  })

  it('redirects to /verify-email?status=invalid for a used or unknown token', async () => {
    const token = await signupToken('w@example.com')
    await t.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`, { headers: { accept: BROWSER_ACCEPT } })
    for (const tk of [token, 'made-up']) {
      const res = await t.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(tk)}`, { headers: { accept: BROWSER_ACCEPT } })
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/verify-email?status=invalid')
    }
  })

  it('keeps the JSON answers for API clients', async () => {
    const token = await signupToken('x@example.com')
    const ok = await t.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`, { headers: { accept: 'application/json' } })
    expect(ok.status).toBe(200)
    expect(ok.body.data.email_verified).toBe(true)
    const bad = await t.request('GET', `/api/auth/verify-email?token=${encodeURIComponent(token)}`)
    expect(bad.status).toBe(400)
  })
})
