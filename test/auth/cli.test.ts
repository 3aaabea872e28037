import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { adminCreateUser, adminResetPassword } from '../../src/modules/auth/auth.cli'
import { users } from '../../src/modules/auth/auth.table'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { PASSWORD, signupViaApi } from './auth-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const login = (email: string, password: string) => t.request('POST', '/api/auth/login', { body: { email, password } })

describe('adminCreateUser', () => {
  it('creates a verified user with their own account and a generated strong password that signs in', async () => {
    const { userId, password } = await adminCreateUser(t.deps, 'Ops@Example.com')
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/)
    const row = (await t.deps.db.read((q) => q.select().from(users).where(eq(users.id, userId))))[0]!
    expect(row).toMatchObject({ email: 'ops@example.com', name: 'ops', emailVerified: true })
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.ownerId, userId))))[0]!.plan).toBe('self_hosted')
    const res = await login('ops@example.com', password)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ user_id: userId, email_verified: true })
    expect((await adminCreateUser(t.deps, 'other@example.com')).password).not.toBe(password)
  })

  it('uses the given password', async () => {
    await adminCreateUser(t.deps, 'given@example.com', 'chosen-password')
    expect((await login('given@example.com', 'chosen-password')).status).toBe(200)
  })

  it.each([
    ['an existing email', 'taken@example.com', undefined, /already exists/],
    ['an invalid email', 'not-an-email', undefined, /not a valid email address/],
    ['a short password', 'new@example.com', 'short', /at least 8 characters/],
  ])('refuses %s with a clear error', async (_, email, password, message) => {
    await signupViaApi(t, { email: 'taken@example.com' })
    await expect(adminCreateUser(t.deps, email, password)).rejects.toThrow(message)
    expect(await t.deps.db.read((q) => q.select().from(users))).toHaveLength(1)
  })
})

describe('adminResetPassword', () => {
  it('sets a new random password and signs the user out everywhere', async () => {
    const s = await signupViaApi(t, { email: 'forgetful@example.com' })
    const { password } = await adminResetPassword(t.deps, 'FORGETFUL@example.com')
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/)
    expect((await t.request('GET', '/api/auth/me', { token: s.token })).status).toBe(401)
    expect((await login('forgetful@example.com', PASSWORD)).status).toBe(401)
    expect((await login('forgetful@example.com', password)).status).toBe(200)
  })

  it('throws for an unknown email', async () => {
    await expect(adminResetPassword(t.deps, 'ghost@example.com')).rejects.toThrow('no user with the email ghost@example.com')
  })
})
