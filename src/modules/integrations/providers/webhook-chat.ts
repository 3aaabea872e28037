import { callProvider, checkedWebhookUrl, expectOk } from './provider-http'
import { chatMessage, type ChatMessage } from './chat-message'
import type { DeliveryInput, Provider, ProviderContext, ProviderInfo } from './provider.types'

/**
 * A chat provider that posts to an incoming-webhook URL (the URL is the credential). Slack and Teams
 * differ only in the body they take, the rule their URL must follow and their words.
 */
export function webhookChatProvider(o: {
  key: string
  name: string
  credential: ProviderInfo['credential']
  /** The message in the provider's format. */
  body: (m: ChatMessage) => unknown
  /** Throws 400 when the pasted URL is not this provider's kind of webhook. */
  checkUrl: (ctx: Omit<ProviderContext, 'config'>) => void
}): Provider {
  const post = async (ctx: ProviderContext, m: ChatMessage) => {
    const a = expectOk(o.name, await callProvider(ctx, o.name, ctx.secret, { method: 'POST', body: JSON.stringify(o.body(m)) }, { userUrl: true }))
    return { statusCode: a.status, response: a.text }
  }
  return {
    key: o.key,
    name: o.name,
    kind: 'chat',
    events: ['bug_created', 'bug_updated', 'comment_added', 'digest'],
    defaultEvents: ['bug_created', 'bug_updated'],
    defaultMinPriority: 'low',
    credential: o.credential,
    config: {},
    async validate(ctx) {
      o.checkUrl(ctx)
      await checkedWebhookUrl(ctx, ctx.secret)
      return {}
    },
    async test(ctx, project) {
      await post(ctx, chatMessage({ event: 'test', action: 'post', payload: { project: { id: '', ...project }, at: 0 } }, ctx.deps.config.publicUrl))
      return `Test message posted to ${o.name}`
    },
    actionsFor: () => ['post'],
    deliver: (ctx, input: DeliveryInput) => post(ctx, chatMessage(input, ctx.deps.config.publicUrl)),
  }
}
