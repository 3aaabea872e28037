import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import { hmacSha256Hex, safeEqual } from '../../lib/ids'
import { createBillingRepository } from './billing.repository'
import { accountOfCustomer, applySubscription, type StripeSubscription } from './billing.sync'
import { requireStripe } from './stripe.client'

/** How far a signed timestamp may be from now; older deliveries are refused as replays. */
export const SIGNATURE_TOLERANCE_S = 300

/** Checks a `Stripe-Signature` header (`t=…,v1=…`): HMAC-SHA256 of `t.body` under the endpoint secret. */
export function verifyStripeSignature(header: string | undefined, rawBody: string, secret: string, now: Date): void {
  const parts = (header ?? '').split(',').map((p) => p.trim().split('='))
  const t = Number(parts.find(([k]) => k === 't')?.[1])
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!)
  if (!Number.isInteger(t) || signatures.length === 0) throw badRequest('invalid Stripe signature')
  if (Math.abs(now.getTime() / 1000 - t) > SIGNATURE_TOLERANCE_S) throw badRequest('Stripe signature timestamp is outside the tolerance')
  const expected = hmacSha256Hex(secret, `${t}.${rawBody}`)
  if (!signatures.some((s) => safeEqual(s, expected))) throw badRequest('invalid Stripe signature')
}

interface StripeEvent {
  id: string
  type: string
  data: { object: Record<string, any> }
}

const SUBSCRIPTION_EVENTS = new Set(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted'])

/**
 * Applies one signed Stripe event: a completed checkout or a subscription change sets the plan.
 * Each event id is applied once; re-deliveries answer `duplicate: true` and change nothing.
 */
export async function handleStripeWebhook(deps: AppDeps, signature: string | undefined, rawBody: string) {
  const stripe = requireStripe(deps.config)
  const secret = deps.config.stripeWebhookSecret
  if (!secret) throw badRequest('billing is not configured')
  verifyStripeSignature(signature, rawBody, secret, deps.clock.now())
  let event: StripeEvent
  try {
    event = JSON.parse(rawBody)
  } catch {
    throw badRequest('malformed Stripe event')
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) throw badRequest('malformed Stripe event')
  const billing = createBillingRepository({ db: deps.db })
  if (await billing.eventSeen(event.id)) return { received: true, duplicate: true }

  const object = event.data.object
  let accountId: string | null = null
  let sub: StripeSubscription | null = null
  if (event.type === 'checkout.session.completed' && object.mode === 'subscription' && typeof object.subscription === 'string') {
    accountId = object.client_reference_id ?? object.metadata?.account_id ?? null
    sub = await stripe.request<StripeSubscription>('GET', `subscriptions/${encodeURIComponent(object.subscription)}`)
  } else if (SUBSCRIPTION_EVENTS.has(event.type)) {
    sub = object as StripeSubscription
    accountId = await accountOfCustomer(deps.db, sub.customer, sub.metadata?.account_id)
  }
  const now = deps.clock.now()
  const applied = await deps.db.write(async () => {
    if (!(await billing.recordEvent(event.id, event.type, now))) return false
    if (accountId && sub) await applySubscription(deps, accountId, sub)
    return true
  })
  if (sub && !accountId) deps.logger.warn('Stripe event for an unknown customer ignored', { event_id: event.id, type: event.type })
  return applied ? { received: true } : { received: true, duplicate: true }
}
