import { badRequest } from '../../../http/errors'
import { callProvider, checkedWebhookUrl, expectOk } from './provider-http'
import { chatMessage, type ChatMessage } from './chat-message'
import type { DeliveryInput, Provider, ProviderContext } from './provider.types'

const NAME = 'Slack'

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

async function post(ctx: ProviderContext, m: ChatMessage) {
  // Slack answers `ok` in plain text, and errors such as `invalid_payload` or `no_service` with a 4xx.
  const a = expectOk(NAME, await callProvider(ctx, NAME, ctx.secret, { method: 'POST', body: JSON.stringify(slackBody(m)) }, { userUrl: true }))
  return { statusCode: a.status, response: a.text }
}

/** Slack through an incoming webhook (the URL is the credential): each subscribed event as a Block Kit message with a link to the report. */
export const slack: Provider = {
  key: 'slack',
  name: NAME,
  kind: 'chat',
  events: ['bug_created', 'bug_updated', 'comment_added', 'digest'],
  defaultEvents: ['bug_created', 'bug_updated'],
  defaultMinPriority: 'low',
  credential: {
    label: 'Incoming webhook URL',
    help: 'Create a Slack app, turn on Incoming Webhooks, add a webhook to a channel and copy its URL (https://hooks.slack.com/services/…).',
    url: 'https://api.slack.com/messaging/webhooks',
  },
  config: {},
  async validate(ctx) {
    if (!/^https?:\/\//i.test(ctx.secret.trim())) throw badRequest('secret must be the incoming webhook URL')
    await checkedWebhookUrl(ctx, ctx.secret)
    return {}
  },
  async test(ctx, project) {
    await post(ctx, chatMessage({ event: 'test', action: 'post', payload: { project: { id: '', ...project }, at: 0 } }, ctx.deps.config.publicUrl))
    return 'Test message posted to Slack'
  },
  actionsFor: () => ['post'],
  deliver: (ctx, input: DeliveryInput) => post(ctx, chatMessage(input, ctx.deps.config.publicUrl)),
}
