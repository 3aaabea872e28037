import { existsSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeBrowser, startBrowser, type BrowserHarness } from './harness'

describeBrowser('the browser-test harness', () => {
  let h: BrowserHarness
  beforeAll(async () => {
    h = await startBrowser()
  })
  afterAll(async () => {
    const dir = h?.dataDir
    await h?.close()
    // The temp data dir goes with the harness.
    if (dir) expect(existsSync(dir)).toBe(false)
  })

  it('drives Chromium against the real server and signs up through the API', async () => {
    const res = await h.page.goto(`${h.baseUrl}/health`)
    expect(res?.status()).toBe(200)
    expect(await h.page.textContent('body')).toContain('healthy')
    const me = await h.signUp()
    expect(me.token).toMatch(/\S{20,}/)
    const profile = await h.api('GET', '/api/auth/me', { token: me.token })
    expect(profile.body.data.email).toBe(me.email)
    const shot = await h.screenshot('harness-health')
    expect(existsSync(shot)).toBe(true)
  })
})
