import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { HOUR, MINUTE } from '../../src/lib/clock'
import { mailOutbox } from '../../src/mail/mail.table'
import { users } from '../../src/modules/auth/auth.table'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { PASSWORD, logsContainAny, pathOf, signupViaApi, startFakeSmtp, uniqueEmail, verificationLink } from './auth-helpers'

let smtp: Awaited<ReturnType<typeof startFakeSmtp>>
let t: TestApp
beforeAll(async () => {
  smtp = await startFakeSmtp()
})
afterAll(() => smtp.close())
beforeEach(() => {
  smtp.messages.length = 0
  t = createTestApp({ env: { GLITCHBOX_SMTP_URL: smtp.url }, transport: 'smtp' })
})
afterEach(() => t.close())

const isVerified = async (userId: string) => (await t.deps.db.read((q) => q.select().from(users).where(eq(users.id, userId))))[0]!.emailVerified

describe('verification mail over SMTP', () => {
  it('delivers the signup mail to the SMTP server; following its link verifies the address once', async () => {
    const email = uniqueEmail('verify')
    const s = await signupViaApi(t, { email })
    expect(smtp.messages).toHaveLength(0)
    expect(await t.runner.drain()).toBe(1)
    expect(smtp.messages).toHaveLength(1)
    const mail = smtp.messages[0]!
    expect(mail.to).toEqual([email])
    expect(mail.decoded).toMatch(/Subject: Verify your email address for Glitchbox/)
    const link = verificationLink(mail.decoded)
    expect(link.startsWith('http://glitchbox.test/api/auth/verify-email?token=')).toBe(true)
    expect((await t.deps.db.read((q) => q.select().from(mailOutbox)))[0]!.status).toBe('sent')

    expect(await isVerified(s.user_id)).toBe(false)
    const res = await t.request('GET', pathOf(link))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Email address verified', email_verified: true } })
    expect(await isVerified(s.user_id)).toBe(true)
    const login = await t.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } })
    expect(login.body.data.email_verified).toBe(true)
    expect((await t.request('GET', '/api/auth/me', { token: s.token })).body.data.email_verified).toBe(true)

    const again = await t.request('GET', pathOf(link))
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('this verification link is invalid, expired or already used')
    // The token travelled by mail only; it is in no log line.
    expect(logsContainAny(t, [new URL(link).searchParams.get('token')!, PASSWORD, s.token])).toEqual([])
  })

  it('answers 400 for a link older than 48 hours, an unknown token and a missing token', async () => {
    await signupViaApi(t)
    await t.runner.drain()
    const link = verificationLink(smtp.messages[0]!.decoded)
    t.clock.advance(48 * HOUR + 1)
    for (const path of [pathOf(link), '/api/auth/verify-email?token=not-a-real-token', '/api/auth/verify-email']) {
      const res = await t.request('GET', path)
      expect(res.status).toBe(400)
      expect(res.body.ok).toBe(false)
    }
  })

  it('works under /api/v1 too', async () => {
    const s = await signupViaApi(t)
    await t.runner.drain()
    const res = await t.request('GET', pathOf(verificationLink(smtp.messages[0]!.decoded)).replace('/api/', '/api/v1/'))
    expect(res.status).toBe(200)
    expect(await isVerified(s.user_id)).toBe(true)
  })
})

describe('POST /api/auth/resend-verification', () => {
  it('sends a new working link to an unverified user named by email; verifying uses up the older link', async () => {
    const email = uniqueEmail('resend')
    const s = await signupViaApi(t, { email })
    t.clock.advance(2 * MINUTE)
    const res = await t.request('POST', '/api/auth/resend-verification', { body: { email: email.toUpperCase() } })
    expect(res.status).toBe(200)
    expect(res.body.data.message).toMatch(/verification email/)
    await t.runner.drain()
    expect(smtp.messages).toHaveLength(2)
    const [first, second] = smtp.messages.map((m) => verificationLink(m.decoded))
    expect(first).not.toBe(second)
    expect((await t.request('GET', pathOf(second!))).status).toBe(200)
    expect(await isVerified(s.user_id)).toBe(true)
    // Verifying uses up every outstanding link.
    expect((await t.request('GET', pathOf(first!))).status).toBe(400)
  })

  it('accepts the session token instead of an email', async () => {
    const s = await signupViaApi(t)
    t.clock.advance(2 * MINUTE)
    const res = await t.request('POST', '/api/auth/resend-verification', { token: s.token })
    expect(res.status).toBe(200)
    await t.runner.drain()
    expect(smtp.messages.map((m) => m.to[0])).toEqual([s.email, s.email])
  })

  it('answers the same 200 for unknown and already verified addresses, and sends nothing', async () => {
    const s = await signupViaApi(t)
    await t.runner.drain()
    await t.request('GET', pathOf(verificationLink(smtp.messages[0]!.decoded)))
    t.clock.advance(2 * MINUTE)
    const unknown = await t.request('POST', '/api/auth/resend-verification', { body: { email: 'nobody@example.com' } })
    const verified = await t.request('POST', '/api/auth/resend-verification', { body: { email: s.email } })
    expect(unknown.status).toBe(200)
    expect(verified.status).toBe(200)
    expect(unknown.body).toEqual(verified.body)
    await t.runner.drain()
    expect(smtp.messages).toHaveLength(1)
  })

  it('sends at most one mail a minute per user', async () => {
    const s = await signupViaApi(t)
    for (let i = 0; i < 3; i++) expect((await t.request('POST', '/api/auth/resend-verification', { body: { email: s.email } })).status).toBe(200)
    await t.runner.drain()
    expect(smtp.messages).toHaveLength(1)
    t.clock.advance(MINUTE + 1)
    await t.request('POST', '/api/auth/resend-verification', { body: { email: s.email } })
    await t.runner.drain()
    expect(smtp.messages).toHaveLength(2)
  })

  it('answers 400 without email or session, 401 for a bad session token, 429 past 10 a minute', async () => {
    expect((await t.request('POST', '/api/auth/resend-verification')).status).toBe(400)
    expect((await t.request('POST', '/api/auth/resend-verification', { body: {} })).status).toBe(400)
    expect((await t.request('POST', '/api/auth/resend-verification', { token: 'stale-token' })).status).toBe(401)
    const ip = '192.0.2.44'
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await t.request('POST', '/api/auth/resend-verification', { ip, body: { email: 'x@example.com' } })).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses[10]).toBe(429)
  })
})
