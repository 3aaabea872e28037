import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
afterEach(() => t.close())

describe('GET /api/server-info', () => {
  it('tells a signed-out client whether billing and social sign-in are configured, and nothing secret', async () => {
    t = createTestApp()
    const plain = await t.request('GET', '/api/server-info')
    expect(plain.status).toBe(200)
    expect(plain.body.data).toEqual({ version: '0.0.0-test', has_accounts: false, billing_configured: false, mail_configured: false, sign_in: { google: null, apple: null } })
    t.close()
    t = createTestApp({ env: { GLITCHBOX_STRIPE_SECRET_KEY: 'sk_test_secret', GLITCHBOX_GOOGLE_CLIENT_ID: 'client.apps.googleusercontent.com' } })
    const configured = await t.request('GET', '/api/v1/server-info')
    expect(configured.body.data).toEqual({ version: '0.0.0-test', has_accounts: false, billing_configured: true, mail_configured: false, sign_in: { google: 'client.apps.googleusercontent.com', apple: null } })
    expect(JSON.stringify(configured.body)).not.toContain('sk_test_secret')
  })

  it('says whether anyone has signed up yet, so the dashboard opens a new server on Sign up (issue 29)', async () => {
    t = createTestApp()
    expect((await t.request('GET', '/api/server-info')).body.data.has_accounts).toBe(false)
    const signup = await t.request('POST', '/api/auth/signup', { body: { email: 'owner@studio.test', password: 'a-long-password-1', name: 'Owner' } })
    expect(signup.status).toBe(201)
    expect((await t.request('GET', '/api/server-info')).body.data.has_accounts).toBe(true)
  })
})
