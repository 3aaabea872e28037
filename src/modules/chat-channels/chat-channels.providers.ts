import type { Config } from '../../config/config'
import { badRequest } from '../../http/errors'
import type { ChatMessage } from '../integrations/providers/chat-message'
import { slackBody } from '../integrations/providers/slack'
import type { ChatChannelProvider } from './chat-channels.schemas'

/** What differs between Discord and Slack channels: where their webhooks live and how a message looks. */
interface ChannelProvider {
  name: string
  /** `GLITCHBOX_PROVIDER_URL_<KEY>` replaces `origins` (tests point it at a local fake). */
  urlKey: string
  origins: string[]
  path: RegExp
  example: string
  /** The JSON body of a message for one event. */
  render(m: ChatMessage, event: string): unknown
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)
/** Discord's blurple for new reports; other events in grey. */
const COLORS: Record<string, number> = { bug_created: 0x5865f2, bug_updated: 0xfaa61a, comment_added: 0x99aab5, test: 0x57f287 }

/** A message as a Discord embed (title linking to the report, facts as inline fields); mentions in report text never ping anyone. */
export function discordBody(m: ChatMessage, event: string) {
  const embed: Record<string, unknown> = { title: clip(m.title, 256), color: COLORS[event] ?? COLORS.bug_updated, footer: { text: 'Glitchbox' } }
  if (m.text) embed.description = clip(m.text, 4096)
  if (m.link) embed.url = m.link.url
  if (m.facts.length) embed.fields = m.facts.slice(0, 25).map(([name, value]) => ({ name: clip(name, 256), value: clip(value || '—', 1024), inline: true }))
  return { username: 'Glitchbox', embeds: [embed], allowed_mentions: { parse: [] } }
}

export const CHANNEL_PROVIDERS: Record<ChatChannelProvider, ChannelProvider> = {
  discord: {
    name: 'Discord',
    urlKey: 'discord',
    origins: ['https://discord.com', 'https://discordapp.com', 'https://ptb.discord.com', 'https://canary.discord.com'],
    path: /^\/api\/(v\d+\/)?webhooks\/\d+\/[\w-]+\/?$/,
    example: 'https://discord.com/api/webhooks/{id}/{token}',
    render: (m, event) => discordBody(m, event),
  },
  slack: {
    name: 'Slack',
    urlKey: 'slack_webhooks',
    origins: ['https://hooks.slack.com'],
    path: /^\/(services|triggers|workflows)\/[\w/-]+$/,
    example: 'https://hooks.slack.com/services/…',
    render: (m) => slackBody(m),
  },
}

/** Refuses a webhook URL that is not on the provider's webhook host and path (400 naming webhook_url); returns it normalised. */
export function checkProviderUrl(config: Pick<Config, 'providerUrls'>, provider: ChatChannelProvider, raw: string): string {
  const p = CHANNEL_PROVIDERS[provider]
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw badRequest(`webhook_url must be a ${p.name} webhook URL (${p.example})`)
  }
  const override = config.providerUrls[p.urlKey]
  const origins = override ? [new URL(override).origin] : p.origins
  if (!origins.includes(url.origin) || !p.path.test(url.pathname) || url.username || url.password) {
    throw badRequest(`webhook_url must be a ${p.name} webhook URL (${p.example})`)
  }
  return url.href
}

/** Host, `…` and the URL's last four characters: enough to tell two webhooks apart, never enough to post. */
export const urlHint = (url: string) => `${new URL(url).host}/…${url.slice(-4)}`

