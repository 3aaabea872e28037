import { badRequest } from '../../../http/errors'
import type { ChatMessage } from './chat-message'
import { webhookChatProvider } from './webhook-chat'

/**
 * Hosts of Teams workflow webhooks (Power Automate's "when a Teams webhook request is received"):
 * older flows answer on `*.logic.azure.com`, newer ones on `*.powerplatform.com` or `*.powerautomate.com`.
 * The retired Office 365 connector URLs (`*.webhook.office.com`) are refused.
 */
const WORKFLOW_HOSTS = ['logic.azure.com', 'powerplatform.com', 'powerautomate.com', 'flow.microsoft.com']

const isWorkflowHost = (host: string) => WORKFLOW_HOSTS.some((h) => host === h || host.endsWith(`.${h}`))

/** A message as an Adaptive Card in the envelope workflow webhooks take. */
export function teamsBody(m: ChatMessage) {
  const body: Record<string, unknown>[] = [{ type: 'TextBlock', text: m.title, weight: 'Bolder', size: 'Medium', wrap: true }]
  if (m.facts.length) body.push({ type: 'FactSet', facts: m.facts.map(([title, value]) => ({ title, value })) })
  if (m.text) body.push({ type: 'TextBlock', text: m.text, wrap: true })
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(m.link && { actions: [{ type: 'Action.OpenUrl', title: m.link.label, url: m.link.url }] }),
  }
  return { type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }] }
}

/** Microsoft Teams through a workflow webhook: each subscribed event as an Adaptive Card with a link to the report. A workflow answers 202; a refusal is JSON `{error: {code, message}}`. */
export const teams = webhookChatProvider({
  key: 'teams',
  name: 'Microsoft Teams',
  credential: {
    label: 'Workflow webhook URL',
    help: 'In the Teams channel, open Workflows, pick "Send webhook alerts to a channel" (or "Post to a channel when a webhook request is received") and copy the URL it shows.',
    url: 'https://support.microsoft.com/office/create-incoming-webhooks-with-workflows-for-microsoft-teams-8ae491c7-0394-4861-ba59-055e33f75498',
  },
  body: teamsBody,
  checkUrl(ctx) {
    let url: URL
    try {
      url = new URL(ctx.secret.trim())
    } catch {
      throw badRequest('secret must be the workflow webhook URL')
    }
    // The operator's GLITCHBOX_PROVIDER_URL_TEAMS stands for where Teams lives (a proxy, a test fake).
    const override = ctx.deps.config.providerUrls.teams
    const trusted = override !== undefined && new URL(override).origin === url.origin
    if (!trusted && (url.protocol !== 'https:' || !isWorkflowHost(url.hostname.toLowerCase()))) {
      throw badRequest(`secret must be a Teams workflow webhook URL (https on ${WORKFLOW_HOSTS.map((h) => `*.${h}`).join(', ')}); connector URLs are retired`)
    }
  },
})
