// Issue 33's settings screen in a real browser: a studio connects its Discord application, sees the
// Interactions Endpoint URL with the steps around it, and "Register /report" reports Discord's answer
// in words, a refusal included. The bot token is a password field and never comes back.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { discordSigner, type FakeDiscord, startFakeDiscord } from '../discord/fake-discord'
import { type BrowserHarness, describeBrowser, type SignedUp, startBrowser } from './harness'

const APP_ID = '1280000000000000002'
const GUILD = '1100000000000000002'
const BOT_TOKEN = 'MTI4MDAwMDAwMDAwMDAwMDAwMg.browser-bot-token-xyz9'

describeBrowser('Discord /report settings in a browser', () => {
  let h: BrowserHarness
  let me: SignedUp
  let slug: string
  let fake: FakeDiscord
  const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 250 })

  beforeAll(async () => {
    fake = startFakeDiscord()
    h = await startBrowser({ env: { GLITCHBOX_PROVIDER_URL_DISCORD: fake.apiUrl } })
    me = await h.signUp({ name: 'Dana Discord' })
    const project = await h.api('POST', '/api/projects', { token: me.token, body: { name: 'Nebula Karts' } })
    expect(project.status).toBe(201)
    slug = project.body.data.slug
  })
  afterAll(async () => {
    await h?.close()
    fake?.stop()
  })

  it('connects the application, shows the endpoint URL with a how-to, and registers /report', async () => {
    const { publicKeyHex } = await discordSigner()
    await h.page.goto(`/projects/${slug}/integrations`)
    const card = h.page.getByRole('region', { name: 'Discord /report' })
    await poll(() => card.getByRole('button', { name: 'Connect Discord' }).count()).toBe(1)
    await card.getByLabel('Application ID').fill(APP_ID)
    await card.getByLabel('Public key').fill(publicKeyHex)
    const token = card.getByLabel('Bot token')
    expect(await token.getAttribute('type')).toBe('password')
    await token.fill(BOT_TOKEN)
    await card.getByLabel('Server (guild) ID').fill(GUILD)
    await card.getByLabel('Reports per player per hour').fill('5')
    await card.getByRole('button', { name: 'Connect Discord' }).click()

    await poll(() => card.getByText(`/api/discord/interactions/${APP_ID}`).count()).toBe(1)
    expect(await card.getByText(/paste this URL as the Interactions Endpoint URL/).count()).toBe(1)
    expect(await card.getByText('/report is not registered yet.').count()).toBe(1)
    // Never shown back: only its last characters, as a hint.
    expect(await h.page.content()).not.toContain(BOT_TOKEN)
    expect(await card.getByText(/Stored encrypted \(…xyz9\)/).count()).toBe(1)
    await h.screenshot('discord-settings')

    fake.failNext(403, { message: 'Missing Access', code: 50001 })
    await card.getByRole('button', { name: 'Register /report' }).click()
    await poll(() => h.page.getByText(/Discord answered 403: the bot may not do that here/).count()).toBe(1)

    await card.getByRole('button', { name: 'Register /report' }).click()
    await poll(() => h.page.getByText(/Discord installed \/report in the server/).count()).toBe(1)
    await poll(() => card.getByText(/^\/report registered/).count()).toBe(1)
    const puts = fake.calls.filter((c) => c.method === 'PUT')
    expect(puts).toHaveLength(2)
    expect(puts[1]).toMatchObject({ path: `/applications/${APP_ID}/guilds/${GUILD}/commands`, authorization: `Bot ${BOT_TOKEN}` })
    const saved = await h.api('GET', `/api/projects/${slug}/discord`, { token: me.token })
    expect(saved.body.data).toMatchObject({ reports_per_hour: 5, guild_id: GUILD })
  })
})
