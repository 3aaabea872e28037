import { type Config, providerUrl } from '../../config/config'

/** Discord's attachment host; `GLITCHBOX_PROVIDER_URL_DISCORD_CDN` moves it (tests: a fake on 127.0.0.1). */
export const DISCORD_CDN = 'https://cdn.discordapp.com'
/** Discord's resizing proxy, which serves the same attachments; accepted only beside the default host. */
const DISCORD_MEDIA = 'https://media.discordapp.net'

/**
 * Whether a player's attachment URL may be fetched: only from Discord's attachment host (same
 * scheme, host and port, under its path), never with credentials in the URL. Anything else an
 * interaction names (a private address, a studio's own server) is refused before any request.
 */
export function isDiscordAttachmentUrl(config: Pick<Config, 'providerUrls'>, raw: string): boolean {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return false
  }
  if (url.username || url.password) return false
  const configured = providerUrl(config, 'discord_cdn', DISCORD_CDN)
  const allowed = configured === DISCORD_CDN ? [DISCORD_CDN, DISCORD_MEDIA] : [configured]
  return allowed.some((base) => {
    const b = new URL(base)
    const prefix = b.pathname.replace(/\/+$/, '')
    return url.protocol === b.protocol && url.host === b.host && (prefix === '' || url.pathname.startsWith(`${prefix}/`))
  })
}
