import { badRequest } from '../../../http/errors'
import type { ChatMessage } from './chat-message'
import { webhookChatProvider } from './webhook-chat'

/** Slack's mrkdwn needs &, < and > escaped; everything else is literal. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)

/** A message as Block Kit: a header, the facts as fields (at most 10), the text, a button to the report; `text` is the notification fallback. */
export function slackBody(m: ChatMessage) {
  const blocks: Record<string, unknown>[] = [{ type: 'header', text: { type: 'plain_text', text: clip(m.title, 150), emoji: false } }]
  if (m.facts.length) blocks.push({ type: 'section', fields: m.facts.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: clip(`*${esc(k)}*\n${esc(v)}`, 2000) })) })
  if (m.text) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(esc(m.text), 3000) } })
  if (m.link) blocks.push({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: clip(m.link.label, 75) }, url: m.link.url }] })
  return { text: m.link ? `${m.title} <${m.link.url}|${esc(m.link.label)}>` : m.title, blocks }
}

/** Slack through an incoming webhook: each subscribed event as a Block Kit message with a link to the report. Slack answers `ok`, or a 4xx such as `invalid_payload`. */
export const slack = webhookChatProvider({
  key: 'slack',
  name: 'Slack',
  credential: {
    label: 'Incoming webhook URL',
    help: 'Create a Slack app, turn on Incoming Webhooks, add a webhook to a channel and copy its URL (https://hooks.slack.com/services/…).',
    url: 'https://api.slack.com/messaging/webhooks',
  },
  body: slackBody,
  checkUrl(ctx) {
    if (!/^https?:\/\//i.test(ctx.secret.trim())) throw badRequest('secret must be the incoming webhook URL')
  },
})
