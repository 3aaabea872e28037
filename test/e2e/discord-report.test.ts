// Issue 33 against the real server process: a studio connects its Discord application, registers
// /report, Discord's PING and a player's signed form arrive over HTTP, the report is filed with its
// screenshot and the deferred answer is edited into the thanks; resolving it posts the reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { discordSigner, type FakeDiscord, startFakeDiscord } from '../discord/fake-discord'
import { removeTempDataDirs, startServer, studioOnServer } from '../helpers/server-process'

const APP_ID = '1280000000000000001'
const GUILD = '1100000000000000001'
const CHANNEL = '1110000000000000001'
const PLAYER = { id: '80351110224678913', username: 'lagspike', global_name: null }
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

let server: Awaited<ReturnType<typeof startServer>>
let fake: FakeDiscord
let signer: Awaited<ReturnType<typeof discordSigner>>
let token = ''
let slug = ''

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: await res.json() }
}

async function interact(body: unknown) {
  const text = JSON.stringify(body)
  const res = await fetch(`${server.url}/api/v1/discord/interactions/${APP_ID}`, { method: 'POST', headers: await signer.headers(text), body: text })
  return { status: res.status, body: await res.json() }
}

/** Waits (the job runner polls each second) until the fake has recorded a call `matches` accepts. */
async function callTo(matches: (c: FakeDiscord['calls'][number]) => boolean) {
  const deadline = Date.now() + 30_000
  for (;;) {
    const found = fake.calls.find(matches)
    if (found) return found
    if (Date.now() > deadline) throw new Error(`no such call; recorded: ${JSON.stringify(fake.calls.map((c) => `${c.method} ${c.path}`))}`)
    await Bun.sleep(100)
  }
}

beforeAll(async () => {
  fake = startFakeDiscord()
  signer = await discordSigner()
  server = await startServer({ env: { GLITCHBOX_PROVIDER_URL_DISCORD: fake.apiUrl, GLITCHBOX_PROVIDER_URL_DISCORD_CDN: fake.cdnUrl } })
  ;({ token, slug } = await studioOnServer(server.url, { email: 'discord@example.com', password: 'discord-report-1', project: 'Kart Game' }))
}, 60_000)

afterAll(async () => {
  await server?.stop()
  fake?.stop()
  removeTempDataDirs()
})

describe('Discord /report on the real server', () => {
  it('connects, registers /report, answers PING, files a form with its screenshot and replies on resolve', async () => {
    const saved = await api('PUT', `/projects/${slug}/discord`, { application_id: APP_ID, public_key: signer.publicKeyHex, bot_token: 'MTI4MDAwMDAwMDAwMDAwMDAwMQ.e2e-bot-token', guild_id: GUILD })
    expect(saved.status).toBe(200)
    expect(saved.body.data.interactions_endpoint_url).toMatch(new RegExp(`/api/discord/interactions/${APP_ID}$`))
    expect((await api('POST', `/projects/${slug}/discord/register`)).status).toBe(200)
    expect(fake.calls[0]).toMatchObject({ method: 'PUT', path: `/applications/${APP_ID}/guilds/${GUILD}/commands` })

    expect(await interact({ type: 1, id: '1', application_id: APP_ID, token: 'x' })).toEqual({ status: 200, body: { type: 1 } })
    const unsigned = await fetch(`${server.url}/api/discord/interactions/${APP_ID}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"type":1}' })
    expect(unsigned.status).toBe(401)

    fake.files.set('/attachments/5/6/kart.png', { bytes: PNG, type: 'image/png' })
    const form = {
      id: '1290000000000000101',
      application_id: APP_ID,
      type: 5,
      token: 'e2e_token',
      guild_id: GUILD,
      channel_id: CHANNEL,
      member: { user: PLAYER },
      data: {
        custom_id: 'glitchbox_report',
        components: [
          { type: 18, component: { type: 4, custom_id: 'title', value: 'Kart falls through the track' } },
          { type: 18, component: { type: 4, custom_id: 'description', value: 'On lap 2 of Lava Loop.' } },
          { type: 18, component: { type: 19, custom_id: 'screenshots', values: ['1300000000000000101'] } },
        ],
        resolved: { attachments: { '1300000000000000101': { id: '1300000000000000101', filename: 'kart.png', size: PNG.length, url: `${fake.cdnUrl}/attachments/5/6/kart.png`, content_type: 'image/png' } } },
      },
    }
    expect(await interact(form)).toEqual({ status: 200, body: { type: 5, data: { flags: 64 } } })
    const thanks = await callTo((c) => c.method === 'PATCH')
    expect(thanks).toMatchObject({ path: `/webhooks/${APP_ID}/e2e_token/messages/@original`, body: { content: 'Thanks — report #1 was sent to the developers.' } })
    const report = (await api('GET', `/projects/${slug}/bugs/1`)).body.data.bug
    expect(report.title).toBe('Kart falls through the track')
    const occurrences = (await api('GET', `/projects/${slug}/bugs/1/occurrences`)).body.data.occurrences as { screenshot_url: string | null; reporter_name: string | null }[]
    expect(occurrences[0]!.screenshot_url).toBeTruthy()
    expect(occurrences[0]!.reporter_name).toBe('lagspike')

    expect((await api('PATCH', `/projects/${slug}/bugs/1`, { status: 'resolved' })).status).toBe(200)
    const reply = await callTo((c) => c.method === 'POST')
    expect(reply).toMatchObject({ path: `/channels/${CHANNEL}/messages`, body: { content: `<@${PLAYER.id}> your report #1 “Kart falls through the track” is fixed.` } })
  }, 90_000)
})
