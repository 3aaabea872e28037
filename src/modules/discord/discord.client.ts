import { type Config, providerUrl } from '../../config/config'
import { readSnippet } from '../../net/safe-fetch'
import { describeFailure } from '../../net/safe-fetch'
import { isDiscordAttachmentUrl } from './discord-attachments'
import type { PlayerAttachment } from './discord-interaction'
import { reportCommandRegistration } from './discord-report-command'

/** Discord's REST API; `GLITCHBOX_PROVIDER_URL_DISCORD` moves it (tests: a fake on 127.0.0.1). */
export const DISCORD_API_URL = 'https://discord.com/api/v10'
/** Spec 4.7: an outgoing call that has not answered within 10 s has failed. */
export const DISCORD_TIMEOUT_MS = 10_000

/** Discord refused a call or could not be reached; the message says why in words a studio can act on. */
export class DiscordError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message)
  }
}

type DiscordConfig = Pick<Config, 'providerUrls' | 'version'>

/** What a refusal means for the studio, by Discord's status. */
function refusal(status: number, detail: string): string {
  const why: Record<number, string> = {
    401: 'the bot token was refused (copy it again from the Bot page of the developer portal)',
    403: 'the bot may not do that here (invite it to the server with the applications.commands scope)',
    404: 'Discord does not know that application, server or channel (check the ids)',
    429: 'Discord is rate limiting us; try again in a minute',
  }
  return `Discord answered ${status}: ${why[status] ?? 'the request was refused'}${detail ? ` (${detail})` : ''}`
}

/** One JSON call to Discord's REST API; a bot token authorises it when given (webhook calls need none). */
async function call(config: DiscordConfig, o: { method: string; path: string; botToken?: string; body?: unknown }): Promise<unknown> {
  const headers: Record<string, string> = { 'User-Agent': `DiscordBot (https://glitchbox.dev, ${config.version})`, Accept: 'application/json' }
  if (o.botToken) headers.Authorization = `Bot ${o.botToken}`
  if (o.body !== undefined) headers['Content-Type'] = 'application/json'
  let res: Response
  try {
    res = await fetch(`${providerUrl(config, 'discord', DISCORD_API_URL)}${o.path}`, {
      method: o.method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), redirect: 'manual', signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS),
    })
  } catch (err) {
    throw new DiscordError(`Discord could not be reached (${describeFailure(err, DISCORD_TIMEOUT_MS)})`)
  }
  if (res.status >= 300) throw new DiscordError(refusal(res.status, (await readSnippet(res, 300)).trim()), res.status)
  if (res.status === 204) return null
  return res.json().catch(() => null)
}

const id = (value: string) => encodeURIComponent(value)

/** Installs `/report` in the studio's server (a bulk overwrite of the guild's commands); answers how many Discord now lists. */
export async function registerReportCommand(config: DiscordConfig, o: { applicationId: string; guildId: string; botToken: string }): Promise<{ commands: number }> {
  const answer = await call(config, { method: 'PUT', path: `/applications/${id(o.applicationId)}/guilds/${id(o.guildId)}/commands`, botToken: o.botToken, body: reportCommandRegistration() })
  return { commands: Array.isArray(answer) ? answer.length : 0 }
}

/** Replaces the deferred answer of an interaction (valid for 15 minutes after it) with `body`. */
export async function editOriginalResponse(config: DiscordConfig, o: { applicationId: string; token: string; body: unknown }): Promise<void> {
  await call(config, { method: 'PATCH', path: `/webhooks/${id(o.applicationId)}/${id(o.token)}/messages/@original`, body: o.body })
}

/** Posts a message in a channel as the bot (status replies). */
export async function postChannelMessage(config: DiscordConfig, o: { channelId: string; botToken: string; body: unknown }): Promise<void> {
  await call(config, { method: 'POST', path: `/channels/${id(o.channelId)}/messages`, botToken: o.botToken, body: o.body })
}

/**
 * A player's attachment, fetched only from Discord's attachment host and read no further than
 * `maxBytes` (whatever its declared size or Content-Length say). The caller stores it through the
 * storage interface, which checks what the bytes are.
 */
export async function fetchAttachment(config: Pick<Config, 'providerUrls'>, attachment: PlayerAttachment, maxBytes: number): Promise<Uint8Array> {
  if (!isDiscordAttachmentUrl(config, attachment.url)) throw new DiscordError('the attachment is not on Discord’s attachment host')
  if (attachment.size > maxBytes) throw new DiscordError(`the attachment is ${attachment.size} bytes, more than the ${maxBytes} allowed`)
  let res: Response
  try {
    res = await fetch(attachment.url, { redirect: 'manual', signal: AbortSignal.timeout(DISCORD_TIMEOUT_MS) })
  } catch (err) {
    throw new DiscordError(`the attachment could not be fetched (${describeFailure(err, DISCORD_TIMEOUT_MS)})`)
  }
  if (res.status !== 200 || !res.body) {
    void res.body?.cancel().catch(() => {})
    throw new DiscordError(`Discord’s attachment host answered ${res.status}`, res.status)
  }
  const chunks: Uint8Array[] = []
  let total = 0
  for await (const chunk of res.body) {
    total += chunk.length
    if (total > maxBytes) throw new DiscordError(`the attachment is larger than the ${maxBytes} bytes allowed`)
    chunks.push(chunk)
  }
  return new Uint8Array(Buffer.concat(chunks))
}
