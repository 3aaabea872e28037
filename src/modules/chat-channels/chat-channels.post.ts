import type { AppDeps } from '../../app-deps'
import { type Answer, callProvider, expectOk } from '../integrations/providers/provider-http'
import { CHANNEL_PROVIDERS } from './chat-channels.providers'
import type { ChatChannelProvider } from './chat-channels.schemas'

/**
 * POSTs a rendered message to a channel's webhook URL through the SSRF guard (10 s, no redirects).
 * Throws ProviderError with the provider's answer ("Discord answered 404: Unknown Webhook") unless it
 * answered below 300.
 */
export async function postMessage(deps: Pick<AppDeps, 'config' | 'clock' | 'logger'>, provider: ChatChannelProvider, url: string, body: string, signal?: AbortSignal): Promise<Answer> {
  const name = CHANNEL_PROVIDERS[provider].name
  return expectOk(name, await callProvider({ deps, secret: url, config: {}, signal }, name, url, { method: 'POST', body }, { userUrl: true }))
}
