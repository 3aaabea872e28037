import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import { defaultBackoff } from '../../jobs/jobs.runner'
import type { JobHandler } from '../../jobs/jobs.types'
import { hmacSha256Hex } from '../../lib/ids'
import { readSnippet, safeFetch, UnsafeTargetError } from '../../net/safe-fetch'
import { webhookAttempts, webhookDeliveries, webhooks } from './webhooks.table'

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

/** A short, log-safe reason why a call failed. */
export function describeFailure(err: unknown): string {
  if (err instanceof UnsafeTargetError) return err.message
  const e = err as { name?: string; code?: string; message?: string }
  if (e?.name === 'TimeoutError') return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
  if (e?.name === 'AbortError') return 'aborted'
  return [e?.code, e?.message].filter(Boolean).join(': ') || String(err)
}

const bound = (name: string) => sql`${sql.placeholder(name)}`

interface Outcome {
  statusCode: number | null
  error: string | null
  snippet: string | null
  durationMs: number
}

/** POSTs one delivery's stored body to its webhook and reports what happened; never throws. */
export async function attempt(deps: AppDeps, w: typeof webhooks.$inferSelect, d: Pick<typeof webhookDeliveries.$inferSelect, 'id' | 'event' | 'payload'>, signal: AbortSignal): Promise<Outcome> {
  const started = performance.now()
  const headers = deliveryHeaders({ version: deps.config.version, event: d.event, deliveryId: d.id, secret: w.secret, body: d.payload })
  try {
    const res = await safeFetch(w.url, { method: 'POST', headers, body: d.payload }, { allowPrivate: deps.config.allowPrivateTargets, timeoutMs: DELIVERY_TIMEOUT_MS, signal })
    const durationMs = Math.round(performance.now() - started)
    // The status decides; a body that is slow or broken after it does not turn success into failure.
    const snippet = await readSnippet(res).catch(() => null)
    return { statusCode: res.status, error: res.status >= 400 ? `receiver answered ${res.status}` : null, snippet, durationMs }
  } catch (err) {
    return { statusCode: null, error: describeFailure(err), snippet: null, durationMs: Math.round(performance.now() - started) }
  }
}

/**
 * The `webhook.deliver` job: sends a pending delivery once and records the attempt (statements
 * prepared once: this runs for every event times every webhook). Throwing hands the retry schedule
 * (1, 5, 25, 125 minutes) to the job runner; the delivery row mirrors it.
 */
export function deliveryHandler(deps: AppDeps): JobHandler<{ deliveryId: string }> {
  const load = deps.db
    .select({ d: webhookDeliveries, w: webhooks })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, sql.placeholder('id')))
    .prepare()
  const insertAttempt = deps.db
    .insert(webhookAttempts)
    .values({
      deliveryId: sql.placeholder('deliveryId'),
      attempt: sql.placeholder('attempt'),
      statusCode: sql.placeholder('statusCode'),
      durationMs: sql.placeholder('durationMs'),
      error: sql.placeholder('error'),
      responseSnippet: sql.placeholder('snippet'),
      createdAt: sql.placeholder('now'),
    })
    .prepare()
  const updateDelivery = deps.db
    .update(webhookDeliveries)
    // `set` takes no bare placeholders; wrapped ones skip column mapping, so timestamps are passed as epoch ms.
    .set({
      status: bound('status'),
      attempts: bound('attempt'),
      lastStatusCode: bound('statusCode'),
      lastError: bound('error'),
      nextAttemptAt: bound('next'),
      updatedAt: bound('nowMs'),
    })
    .where(and(eq(webhookDeliveries.id, sql.placeholder('deliveryId')), eq(webhookDeliveries.status, 'pending')))
    .prepare()

  return {
    kind: DELIVER_KIND,
    timeoutMs: DELIVERY_TIMEOUT_MS + 2_000,
    maxAttempts: DELIVERY_ATTEMPTS,
    async run({ deliveryId }, ctx) {
      const row = load.get({ id: deliveryId })
      // Gone with its webhook, or already answered before a crash kept the job from finishing.
      if (!row || row.d.status !== 'pending') return
      const out = await attempt(deps, row.w, row.d, ctx.signal)
      const now = deps.clock.now()
      const ok = out.error === null
      const last = ctx.attempt >= ctx.maxAttempts
      const values = { deliveryId, attempt: row.d.attempts + 1, statusCode: out.statusCode, durationMs: out.durationMs, error: out.error, snippet: out.snippet, now }
      deps.db.transaction(() => {
        insertAttempt.run(values)
        updateDelivery.run({
          ...values,
          status: ok ? 'succeeded' : last ? 'failed' : 'pending',
          next: ok || last ? null : now.getTime() + defaultBackoff(ctx.attempt),
          nowMs: now.getTime(),
        })
      })
      if (!ok) throw new Error(out.error!)
    },
  }
}
