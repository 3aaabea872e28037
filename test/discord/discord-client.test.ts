// Glitchbox's calls to Discord, against a fake Discord on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeClock } from '../../src/lib/clock'
import { DiscordError, editOriginalResponse, fetchAttachment, postChannelMessage, registerReportCommand } from '../../src/modules/discord/discord.client'
import { thanksEdit } from '../../src/modules/discord/discord-report-messages'
import { verifyDiscordSignature } from '../../src/modules/discord/discord-signature'
import { discordSigner, startFakeDiscord, type FakeDiscord } from './fake-discord'

let discord: FakeDiscord
let config: { providerUrls: Record<string, string>; version: string }
const APP = '1280000000000000000'
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])

beforeAll(() => {
  discord = startFakeDiscord()
  config = { providerUrls: { discord: discord.apiUrl, discord_cdn: discord.cdnUrl }, version: '0.1.0' }
  discord.files.set('/attachments/1/2/shot.png', { bytes: PNG, type: 'image/png' })
  discord.files.set('/attachments/1/2/big.png', { bytes: new Uint8Array(5000), type: 'image/png' })
})
afterAll(() => discord.stop())

describe('the Discord client', () => {
  it('registers /report in the guild with the bot token', async () => {
    expect(await registerReportCommand(config, { applicationId: APP, guildId: '1100000000000000000', botToken: 'bot-secret' })).toEqual({ commands: 1 })
    expect(discord.calls.at(-1)).toMatchObject({ method: 'PUT', path: `/applications/${APP}/guilds/1100000000000000000/commands`, authorization: 'Bot bot-secret', body: [expect.objectContaining({ name: 'report' })] })
  })

  it('says in words why Discord refused the registration', async () => {
    discord.failNext(401, { message: '401: Unauthorized', code: 0 })
    const error = await registerReportCommand(config, { applicationId: APP, guildId: '1100000000000000000', botToken: 'wrong' }).catch((e) => e)
    expect(error).toBeInstanceOf(DiscordError)
    expect(error.message).toMatch(/Discord answered 401: the bot token was refused/)
  })

  it('edits the deferred answer through the interaction webhook, without the bot token', async () => {
    await editOriginalResponse(config, { applicationId: APP, token: 'tok-en', body: thanksEdit({ reportNumber: 42 }) })
    expect(discord.calls.at(-1)).toMatchObject({ method: 'PATCH', path: `/webhooks/${APP}/tok-en/messages/@original`, authorization: null, body: { content: expect.stringContaining('report #42') } })
  })

  it('posts a status reply in a channel as the bot', async () => {
    await postChannelMessage(config, { channelId: '1110000000000000000', botToken: 'bot-secret', body: { content: 'hi' } })
    expect(discord.calls.at(-1)).toMatchObject({ method: 'POST', path: '/channels/1110000000000000000/messages', authorization: 'Bot bot-secret' })
  })

  it('fetches a screenshot from the attachment host only, within the size limit', async () => {
    const shot = { url: `${discord.cdnUrl}/attachments/1/2/shot.png`, content_type: 'image/png', size: PNG.length, filename: 'shot.png' }
    expect(await fetchAttachment(config, shot, 1000)).toEqual(PNG)
    await expect(fetchAttachment(config, { ...shot, url: 'http://127.0.0.1:1/elsewhere.png' }, 1000)).rejects.toThrow(/not on Discord’s attachment host/)
    await expect(fetchAttachment(config, { ...shot, size: 5000 }, 1000)).rejects.toThrow(/5000 bytes, more than the 1000 allowed/)
    // A size that lies is caught while reading.
    await expect(fetchAttachment(config, { ...shot, url: `${discord.cdnUrl}/attachments/1/2/big.png` }, 1000)).rejects.toThrow(/larger than the 1000 bytes allowed/)
    await expect(fetchAttachment(config, { ...shot, url: `${discord.cdnUrl}/attachments/1/2/gone.png` }, 1000)).rejects.toThrow(/answered 404/)
  })

  it('signs interactions the way the verifier checks them', async () => {
    const signer = await discordSigner()
    const body = JSON.stringify({ type: 1 })
    const headers = await signer.headers(body, new Date('2026-03-01T12:00:00Z'))
    const check = await verifyDiscordSignature({ publicKeyHex: signer.publicKeyHex, signature: headers['x-signature-ed25519'], timestamp: headers['x-signature-timestamp'], body: new TextEncoder().encode(body), clock: new FakeClock('2026-03-01T12:01:00Z') })
    expect(check).toEqual({ ok: true })
  })
})
