import type { Server } from 'bun'
import type { AppDeps } from '../../app-deps'
import { clientIp } from '../../http/client-ip'
import { rateLimited, sdkBudget } from '../../http/rate-limit'
import { type Envelope, FEEDBACK_ITEM_TYPES } from './protocol'

/**
 * An envelope counts against the SDK budget once per report it files (its event and each feedback
 * item), not once per request: the pipeline counted the request, the further reports are counted
 * here before anything is filed, and past the budget the whole envelope is refused (429 with
 * `Retry-After` and `X-Sentry-Rate-Limits`), as the request itself would have been.
 */
export function chargeReports(deps: Pick<AppDeps, 'config' | 'rateLimiter' | 'sdkRefusals'>, request: Request, server: Server<unknown> | null, key: string, envelope: Envelope): void {
  const budgets = sdkBudget(deps.config)
  const reports = envelope.items.filter((i) => i.json && (i.type === 'event' || FEEDBACK_ITEM_TYPES.has(i.type))).length
  if (!budgets.length || reports <= 1) return
  const ip = clientIp(request, server, deps.config.trustProxy)
  for (let i = 1; i < reports; i++) {
    const decision = deps.rateLimiter.hit(ip, budgets)
    if (decision.allowed) continue
    deps.sdkRefusals.record(key)
    throw rateLimited(decision, true)
  }
}
