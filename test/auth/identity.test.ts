import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { users } from '../../src/modules/auth/auth.table'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { ACCEPTING_SMTP, logsContainAny, PASSWORD, signupViaApi, startJwks } from './auth-helpers'

const GOOGLE_AUD = 'google-client.apps.googleusercontent.com'
const APPLE_AUD = 'com.example.glitchbox'
const GOOGLE = 'https://accounts.google.com'
const APPLE = 'https://appleid.apple.com'

let google: Awaited<ReturnType<typeof startJwks>>
let apple: Awaited<ReturnType<typeof startJwks>>
let t: TestApp
beforeAll(async () => {
  google = await startJwks()
  apple = await startJwks()
})
afterAll(() => {
  google.close()
  apple.close()
})
afterEach(() => t?.close())

function appWithProviders(env: Record<string, string> = {}) {
  t = createTestApp({
    env: {
      GLITCHBOX_GOOGLE_CLIENT_ID: GOOGLE_AUD,
      GLITCHBOX_APPLE_CLIENT_ID: APPLE_AUD,
      GLITCHBOX_PROVIDER_URL_GOOGLE_JWKS: google.url,
      GLITCHBOX_PROVIDER_URL_APPLE_JWKS: apple.url,
      ...env,
    },
    transport: ACCEPTING_SMTP,
  })
  return t
}

const googleToken = (o: { sub?: string; email?: string; verified?: boolean | string; aud?: string; ttlSeconds?: number; name?: string } = {}) =>
  google.sign({
    iss: GOOGLE,
    aud: o.aud ?? GOOGLE_AUD,
    sub: o.sub ?? 'google-sub-1',
    now: t.clock.now(),
    ttlSeconds: o.ttlSeconds,
    claims: { email: o.email ?? 'gamer@example.com', email_verified: o.verified ?? true, ...(o.name ? { name: o.name } : {}) },
  })

const login = (identity_token: string) => t.request('POST', '/api/auth/login', { body: { identity_token } })

describe('POST /api/auth/login with a Google or Apple identity_token', () => {
  it('creates the user and their account on first sign-in, and signs the same user in afterwards', async () => {
    appWithProviders()
    const fetchesBefore = google.requests()
    const idToken = await googleToken({ name: 'Gamer One' })
    const first = await login(idToken)
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ email: 'gamer@example.com', name: 'Gamer One', email_verified: true, onboarding_done: false })
    const row = (await t.deps.db.read((q) => q.select().from(users).where(eq(users.id, first.body.data.user_id))))[0]!
    expect(row).toMatchObject({ googleSub: 'google-sub-1', passwordHash: null })
    expect(await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.ownerId, row.id)))).toHaveLength(1)

    t.clock.advance(60_000)
    const second = await login(await googleToken())
    expect(second.status).toBe(200)
    expect(second.body.data.user_id).toBe(first.body.data.user_id)
    expect(await t.deps.db.read((q) => q.select().from(users))).toHaveLength(1)
    // The key set is fetched once and cached.
    expect(google.requests() - fetchesBefore).toBe(1)
    expect(logsContainAny(t, [idToken, first.body.data.token, second.body.data.token])).toEqual([])
  })

  it('signs in with Apple, reading the string "true" of email_verified', async () => {
    appWithProviders()
    const token = await apple.sign({ iss: APPLE, aud: APPLE_AUD, sub: 'apple-sub-9', now: t.clock.now(), claims: { email: 'fan@privaterelay.appleid.com', email_verified: 'true' } })
    const res = await login(token)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ email: 'fan@privaterelay.appleid.com', name: 'fan', email_verified: true })
    expect((await t.deps.db.read((q) => q.select().from(users)))[0]!.appleSub).toBe('apple-sub-9')
  })

  it.each([
    ['a wrong audience', async () => googleToken({ aud: 'someone-elses-client' })],
    ['an expired token', async () => googleToken({ ttlSeconds: -60 })],
    ['a bad signature', async () => google.signWithStrangerKey({ iss: GOOGLE, aud: GOOGLE_AUD, sub: 'x', now: t.clock.now(), claims: { email: 'x@example.com', email_verified: true } })],
    ['a key from the other provider', async () => apple.sign({ iss: GOOGLE, aud: GOOGLE_AUD, sub: 'x', now: t.clock.now(), claims: { email: 'x@example.com' } })],
    ['an unknown issuer', async () => google.sign({ iss: 'https://evil.example', aud: GOOGLE_AUD, sub: 'x', now: t.clock.now() })],
    ['a string that is no JWT', async () => 'not-a-jwt'],
  ])('answers 401 for %s and creates nobody', async (_, make) => {
    appWithProviders()
    const res = await login(await make())
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ ok: false, error: 'invalid identity token' })
    expect(await t.deps.db.read((q) => q.select().from(users))).toHaveLength(0)
  })

  it('judges expiry by the server clock', async () => {
    appWithProviders()
    const token = await googleToken({ ttlSeconds: 3600 })
    t.clock.advance(2 * 3600 * 1000)
    expect((await login(token)).status).toBe(401)
  })

  it('answers 401 when social sign-in is not configured', async () => {
    t = createTestApp({ env: { GLITCHBOX_PROVIDER_URL_GOOGLE_JWKS: google.url } })
    const res = await login(await googleToken())
    expect(res.status).toBe(401)
    expect(res.body.error).toMatch(/not configured/)
  })

  it('answers 401 for an Apple token when only Google is configured', async () => {
    appWithProviders({ GLITCHBOX_APPLE_CLIENT_ID: '' })
    const token = await apple.sign({ iss: APPLE, aud: APPLE_AUD, sub: 'a', now: t.clock.now(), claims: { email: 'a@example.com' } })
    const res = await login(token)
    expect(res.status).toBe(401)
    expect(res.body.error).toMatch(/Apple is not configured/)
  })

  it('answers 502 when the provider key set cannot be fetched', async () => {
    appWithProviders({ GLITCHBOX_PROVIDER_URL_GOOGLE_JWKS: 'http://127.0.0.1:9/keys' })
    const res = await login(await googleToken())
    expect(res.status).toBe(502)
  })

  it('links a verified provider email to the existing user with that email', async () => {
    appWithProviders()
    const s = await signupViaApi(t, { email: 'gamer@example.com' })
    await t.deps.db.write((q) => q.update(users).set({ emailVerified: true }).where(eq(users.id, s.user_id)))
    const res = await login(await googleToken())
    expect(res.status).toBe(200)
    expect(res.body.data.user_id).toBe(s.user_id)
    // The password keeps working and the earlier session survives.
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'gamer@example.com', password: PASSWORD } })).status).toBe(200)
    expect((await t.request('GET', '/api/auth/me', { token: s.token })).status).toBe(200)
  })

  it('takes over an unverified signup of the same address: its password and sessions stop working', async () => {
    appWithProviders()
    const squatter = await signupViaApi(t, { email: 'gamer@example.com' })
    const res = await login(await googleToken())
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ user_id: squatter.user_id, email_verified: true })
    expect((await t.request('GET', '/api/auth/me', { token: squatter.token })).status).toBe(401)
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'gamer@example.com', password: PASSWORD } })).status).toBe(401)
  })

  it('refuses to link when the provider does not vouch for the email', async () => {
    appWithProviders()
    await signupViaApi(t, { email: 'gamer@example.com' })
    const res = await login(await googleToken({ verified: false }))
    expect(res.status).toBe(401)
    expect(res.body.error).toMatch(/sign in with your password/)
  })

  it('refuses a token without an email for an unknown subject', async () => {
    appWithProviders()
    const token = await google.sign({ iss: GOOGLE, aud: GOOGLE_AUD, sub: 'no-mail', now: t.clock.now() })
    const res = await login(token)
    expect(res.status).toBe(401)
    expect(res.body.error).toMatch(/no email/)
  })

  it('gives a social-only user a 400 on change-password', async () => {
    appWithProviders()
    const { token } = (await login(await googleToken())).body.data
    const res = await t.request('POST', '/api/auth/change-password', { token, body: { current_password: 'anything1', new_password: 'new-password-1' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/Google or Apple/)
    expect((await t.request('GET', '/api/auth/me', { token })).body.data.has_password).toBe(false)
  })
})
