import { afterAll, beforeAll, expect, it } from 'vitest'
import { startJwks } from '../auth/auth-helpers'
import { type BrowserHarness, describeBrowser, startBrowser } from './harness'

const GOOGLE_AUD = 'glitchbox-test.apps.googleusercontent.com'

/**
 * Stands in for Google Identity Services (the browser tests have no internet): renders a button whose
 * click hands the page's callback the ID token the test signed with its own JWKS.
 */
const fakeGoogleSdk = (token: string) => `
window.google = { accounts: { id: {
  initialize(o) { window.__gis = o },
  renderButton(el) {
    const b = document.createElement('button'); b.type = 'button'; b.textContent = 'Continue with Google (test)'
    b.onclick = () => window.__gis.callback({ credential: ${JSON.stringify(token)} }); el.appendChild(b)
  },
} } }`

describeBrowser('Google and Apple sign-in on the sign-in page', () => {
  let h: BrowserHarness
  let jwks: Awaited<ReturnType<typeof startJwks>>

  beforeAll(async () => {
    jwks = await startJwks()
    h = await startBrowser({ env: { GLITCHBOX_GOOGLE_CLIENT_ID: GOOGLE_AUD, GLITCHBOX_APPLE_CLIENT_ID: 'com.example.glitchbox', GLITCHBOX_PROVIDER_URL_GOOGLE_JWKS: jwks.url } })
  })
  afterAll(async () => {
    await h?.close()
    jwks?.close()
  })

  it('shows the configured providers, allows their SDKs in the CSP, and signs in with a verified Google ID token', async () => {
    const token = await jwks.sign({ iss: 'https://accounts.google.com', aud: GOOGLE_AUD, sub: 'google-sub-42', now: new Date(), claims: { email: 'pilot@example.com', email_verified: true, name: 'Pia Pilot' } })
    await h.page.route('https://accounts.google.com/gsi/client', (route) => route.fulfill({ contentType: 'text/javascript', body: fakeGoogleSdk(token) }))
    const res = await h.page.goto('/login')
    const csp = res!.headers()['content-security-policy']!
    expect(csp).toContain('script-src \'self\' https://accounts.google.com/gsi/client https://appleid.cdn-apple.com')
    expect(csp).not.toContain('unsafe-inline')
    const group = h.page.getByRole('group', { name: 'Sign in with another account' })
    await expect.poll(() => group.getByRole('button', { name: 'Sign in with Apple' }).count(), { timeout: 15_000 }).toBe(1)
    await h.screenshot('login-social')
    await group.getByRole('button', { name: 'Continue with Google (test)' }).click()
    await expect.poll(() => new URL(h.page.url()).pathname, { timeout: 15_000 }).toBe('/')
    const me = await h.page.evaluate(() => fetch('/api/auth/me').then((r) => r.json()))
    expect(me.data.email).toBe('pilot@example.com')
  })

  // Starts a second server: on PostgreSQL under load that alone can take longer than the default test timeout.
  it('offers no social buttons (and no third-party script sources) when nothing is configured', { timeout: 180_000 }, async () => {
    const plain = await startBrowser()
    try {
      const res = await plain.page.goto('/login')
      expect(res!.headers()['content-security-policy']).toContain("script-src 'self';")
      await expect.poll(() => plain.page.getByRole('button', { name: 'Sign in', exact: true }).count(), { timeout: 15_000 }).toBe(1)
      expect(await plain.page.getByRole('group', { name: 'Sign in with another account' }).count()).toBe(0)
    } finally {
      await plain.close()
    }
  })
})
