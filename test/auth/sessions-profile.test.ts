import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { ACCEPTING_SMTP, PASSWORD, signupViaApi } from './auth-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp({ transport: ACCEPTING_SMTP })
})
afterEach(() => t.close())

const me = (token?: string) => t.request('GET', '/api/auth/me', { token })
const loginAgain = async (email: string, password = PASSWORD) =>
  (await t.request('POST', '/api/auth/login', { body: { email, password } })).body.data?.token as string

describe('sessions', () => {
  it('answers 401 to routes needing a session without one, or with an unknown token', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/auth/me'],
      ['POST', '/api/auth/logout'],
      ['PATCH', '/api/auth/profile', { theme: 'dark' }],
      ['POST', '/api/auth/change-password', { current_password: PASSWORD, new_password: 'long-enough-1' }],
      ['POST', '/api/auth/support-share-code'],
      ['DELETE', '/api/auth/support-share-code'],
      ['GET', '/api/account/export'],
      ['DELETE', '/api/auth/account', { confirmation: 'DELETE' }],
    ]
    for (const [method, path, body] of routes) {
      for (const token of [undefined, 'made-up-token']) {
        const res = await t.request(method, path, { token, body })
        expect([method, path, res.status, res.body]).toEqual([method, path, 401, { ok: false, error: 'missing or invalid session token' }])
      }
    }
  })

  it('keeps a token valid for 30 days and no longer', async () => {
    const s = await signupViaApi(t)
    t.clock.advance(29 * DAY)
    expect((await me(s.token)).status).toBe(200)
    t.clock.advance(2 * DAY)
    expect((await me(s.token)).status).toBe(401)
  })

  it('logout revokes only the presented token', async () => {
    const s = await signupViaApi(t)
    const other = await loginAgain(s.email)
    const res = await t.request('POST', '/api/auth/logout', { token: s.token })
    expect(res.status).toBe(200)
    expect(res.body.data.message).toBe('Signed out')
    expect((await me(s.token)).status).toBe(401)
    expect((await t.request('POST', '/api/auth/logout', { token: s.token })).status).toBe(401)
    expect((await me(other)).status).toBe(200)
  })
})

describe('GET /api/auth/me and PATCH /api/auth/profile', () => {
  it('returns the profile with the current account', async () => {
    const s = await signupViaApi(t, { name: 'Ada' })
    const res = await me(s.token)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id: s.user_id,
      email: s.email,
      name: 'Ada',
      display_name: null,
      avatar_url: null,
      theme: null,
      role: null,
      email_verified: false,
      onboarding_done: false,
      has_password: true,
      created_at: t.clock.now().toISOString(),
      account: { name: "Ada's team", role: 'owner', plan: 'self_hosted' },
    })
    expect(JSON.stringify(res.body)).not.toMatch(/argon2|password_hash/)
  })

  it('updates the given fields and shows them on the next read', async () => {
    const s = await signupViaApi(t)
    const res = await t.request('PATCH', '/api/auth/profile', {
      token: s.token,
      body: { display_name: 'Captain', avatar_url: 'https://cdn.example.com/a.png', theme: 'dark', role: 'qa' },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Profile updated' } })
    expect((await me(s.token)).body.data).toMatchObject({ display_name: 'Captain', avatar_url: 'https://cdn.example.com/a.png', theme: 'dark', role: 'qa' })
  })

  it('ignores unknown theme and role values but applies the valid fields beside them', async () => {
    const s = await signupViaApi(t)
    await t.request('PATCH', '/api/auth/profile', { token: s.token, body: { theme: 'light', role: 'producer' } })
    const res = await t.request('PATCH', '/api/auth/profile', { token: s.token, body: { display_name: 'Neo', theme: 'neon', role: 'wizard' } })
    expect(res.status).toBe(200)
    expect((await me(s.token)).body.data).toMatchObject({ display_name: 'Neo', theme: 'light', role: 'producer' })
  })

  it.each([
    ['an empty body', {}, 'no valid fields to update'],
    ['only unknown theme and role values', { theme: 'neon', role: 'wizard' }, 'no valid fields to update'],
    ['only unrelated fields', { email: 'new@example.com' }, 'no valid fields to update'],
    ['a display_name over 100 characters', { display_name: 'x'.repeat(101) }, /display_name/],
    ['an avatar_url that is no http(s) URL', { avatar_url: 'javascript:alert(1)' }, /avatar_url/],
    ['a non-string display_name', { display_name: 7 }, /display_name/],
  ])('answers 400 for %s', async (_, body, error) => {
    const s = await signupViaApi(t)
    const res = await t.request('PATCH', '/api/auth/profile', { token: s.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(error)
    expect((await me(s.token)).body.data).toMatchObject({ display_name: null, avatar_url: null, theme: null, role: null, email: s.email })
  })

  it('clears the avatar with an empty string', async () => {
    const s = await signupViaApi(t)
    await t.request('PATCH', '/api/auth/profile', { token: s.token, body: { avatar_url: 'http://x.example/a.png' } })
    expect((await t.request('PATCH', '/api/auth/profile', { token: s.token, body: { avatar_url: '' } })).status).toBe(200)
    expect((await me(s.token)).body.data.avatar_url).toBe('')
  })
})

describe('POST /api/auth/change-password', () => {
  it('changes the password, keeps the current session and signs out the others', async () => {
    const s = await signupViaApi(t)
    const other = await loginAgain(s.email)
    const res = await t.request('POST', '/api/auth/change-password', { token: s.token, body: { current_password: PASSWORD, new_password: 'brand-new-secret' } })
    expect(res.status).toBe(200)
    expect(res.body.data.message).toMatch(/Password changed/)
    expect((await me(s.token)).status).toBe(200)
    expect((await me(other)).status).toBe(401)
    expect(await loginAgain(s.email)).toBeUndefined()
    expect(await loginAgain(s.email, 'brand-new-secret')).toEqual(expect.any(String))
  })

  it.each([
    ['a short new password', { current_password: PASSWORD, new_password: 'short' }, 400, /new_password: must be at least 8/],
    ['a missing current password', { new_password: 'long-enough-1' }, 400, /current_password is required/],
    ['both fields missing', {}, 400, /current_password and new_password are required/],
    ['a wrong current password', { current_password: 'not-my-password', new_password: 'long-enough-1' }, 401, 'current password is incorrect'],
  ])('answers %s with its status and changes nothing', async (_, body, status, error) => {
    const s = await signupViaApi(t)
    const other = await loginAgain(s.email)
    const res = await t.request('POST', '/api/auth/change-password', { token: s.token, body })
    expect(res.status).toBe(status)
    expect(res.body.error).toMatch(error)
    expect((await me(other)).status).toBe(200)
    expect(await loginAgain(s.email)).toEqual(expect.any(String))
  })
})
