import type { AppDeps } from '../../app-deps'
import { defaultBackoff } from '../../jobs/jobs.runner'
import type { JobHandler } from '../../jobs/jobs.types'
import { hmacSha256Hex } from '../../lib/ids'
import { describeFailure, readSnippet, safeFetch } from '../../net/safe-fetch'
import { createWebhooksRepository, type Webhook, type WebhookDelivery } from './webhooks.repository'

export const DELIVER_KIND = 'webhook.deliver'
/** Spec section 6: an answer below 400 within 10 s is success; 5 attempts in all. */
export const DELIVERY_TIMEOUT_MS = 10_000
export const DELIVERY_ATTEMPTS = 5

/** The headers of one delivery; the signature covers the exact body bytes. */
export function deliveryHeaders(o: { version: string; event: string; deliveryId: string; secret: string | null; body: string }): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': `Glitchbox/${o.version}`,
    'X-Glitchbox-Event': o.event,
    'X-Glitchbox-Delivery': o.deliveryId,
  }
  if (o.secret) headers['X-Glitchbox-Signature'] = `sha256=${hmacSha256Hex(o.secret, o.body)}`
  return headers
}

interface Outcome {
  statusCode: number | null
  error: string | null
  snippet: string | null
  durationMs: number
}

/** POSTs one delivery's stored body to its webhook and reports what happened; never throws. */
export async function attempt(deps: AppDeps, w: Webhook, d: Pick<WebhookDelivery, 'id' | 'event' | 'payload'>, signal: AbortSignal): Promise<Outcome> {
  const started = performance.now()
  const headers = deliveryHeaders({ version: deps.config.version, event: d.event, deliveryId: d.id, secret: w.secret, body: d.payload })
  try {
    const res = await safeFetch(w.url, { method: 'POST', headers, body: d.payload }, { allowPrivate: deps.config.allowPrivateTargets, timeoutMs: DELIVERY_TIMEOUT_MS, signal })
    const durationMs = Math.round(performance.now() - started)
    // The status decides; a body that is slow or broken after it does not turn success into failure.
    const snippet = await readSnippet(res).catch(() => null)
    return { statusCode: res.status, error: res.status >= 400 ? `receiver answered ${res.status}` : null, snippet, durationMs }
  } catch (err) {
    return { statusCode: null, error: describeFailure(err, DELIVERY_TIMEOUT_MS), snippet: null, durationMs: Math.round(performance.now() - started) }
  }
}

/**
 * The `webhook.deliver` job: sends a pending delivery once and records the attempt. Throwing hands
 * the retry schedule (1, 5, 25, 125 minutes) to the job runner; the delivery row mirrors it.
 */
export function deliveryHandler(deps: AppDeps): JobHandler<{ deliveryId: string }> {
  const repo = createWebhooksRepository({ db: deps.db })
  return {
    kind: DELIVER_KIND,
    timeoutMs: DELIVERY_TIMEOUT_MS + 2_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    async run({ deliveryId }, ctx) {
      const row = await repo.deliveryWithWebhook(deliveryId)
      // Gone with its webhook, or already answered before a crash kept the job from finishing.
      if (!row || row.d.status !== 'pending') return
      const out = await attempt(deps, row.w, row.d, ctx.signal)
      const now = deps.clock.now()
      const ok = out.error === null
      const last = ctx.attempt >= ctx.maxAttempts
      const attempts = row.d.attempts + 1
      await repo.recordAttempt(
        { deliveryId, attempt: attempts, statusCode: out.statusCode, durationMs: out.durationMs, error: out.error, responseSnippet: out.snippet, createdAt: now },
        {
          status: ok ? 'succeeded' : last ? 'failed' : 'pending',
          attempts,
          lastStatusCode: out.statusCode,
          lastError: out.error,
          nextAttemptAt: ok || last ? null : new Date(now.getTime() + defaultBackoff(ctx.attempt)),
          updatedAt: now,
        },
      )
      if (!ok) throw new Error(out.error!)
    },
  }
}
