import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import type { Account } from '../../http/auth.plugin'
import { recordAudit } from '../activity/activity.service'
import { pendingView, saveSubscription, type StripeSubscription } from './billing.sync'
import { billingSubscriptions } from './billing.table'
import { PLANS, type PlanKey } from './plans'
import { requireStripe } from './stripe.client'

const subscriptionPath = (id: string) => `subscriptions/${encodeURIComponent(id)}`

/** Saves the pending downgrade (or its absence) with what Stripe says about the subscription now. */
function savePending(deps: AppDeps, account: Account, sub: StripeSubscription, pendingPlan: 'free' | 'pro' | null, actorId: string) {
  const now = deps.clock.now()
  const pending = { pendingPlan, pendingEffectiveAt: pendingPlan ? new Date(sub.current_period_end * 1000) : null }
  deps.db.transaction((tx) => {
    saveSubscription(tx, account.id, sub, { subscriptionId: sub.id, ...pending }, now)
    recordAudit(tx, now, { accountId: account.id, actorId, action: pendingPlan ? 'billing.downgrade_scheduled' : 'billing.downgrade_cancelled', details: { plan: pendingPlan } })
  })
  return pendingView(pending)
}

/**
 * Schedules a downgrade for the end of the paid period: to free by letting the subscription end
 * there, to pro by switching its price once the period is over (see applySubscription).
 */
export async function scheduleDowngrade(deps: AppDeps, account: Account, plan: 'free' | 'pro', actorId: string) {
  const stripe = requireStripe(deps.config)
  const subId = account.stripeSubscriptionId
  if (!subId) throw badRequest('the account has no subscription to downgrade')
  const current = PLANS[account.plan as PlanKey]
  if (PLANS[plan].tier >= current.tier) throw badRequest(`the account is on the ${current.name} plan; a downgrade must go to a lower plan`)
  let sub: StripeSubscription
  if (plan === 'free') sub = await stripe.request('POST', subscriptionPath(subId), { cancel_at_period_end: true })
  else {
    sub = await stripe.request('GET', subscriptionPath(subId))
    if (sub.cancel_at_period_end) sub = await stripe.request('POST', subscriptionPath(subId), { cancel_at_period_end: false })
  }
  return { pending_downgrade: savePending(deps, account, sub, plan, actorId) }
}

/** The scheduled downgrade, if any. */
export function pendingDowngrade(deps: AppDeps, account: Account) {
  const row = deps.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.accountId, account.id)).get()
  return { pending_downgrade: pendingView(row) }
}

/** Cancels the scheduled downgrade: the subscription renews on its current plan. */
export async function cancelDowngrade(deps: AppDeps, account: Account, actorId: string) {
  const stripe = requireStripe(deps.config)
  const row = deps.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.accountId, account.id)).get()
  if (!row?.pendingPlan || !account.stripeSubscriptionId) throw notFound('no downgrade is scheduled')
  const path = subscriptionPath(account.stripeSubscriptionId)
  const sub: StripeSubscription = row.cancelAtPeriodEnd ? await stripe.request('POST', path, { cancel_at_period_end: false }) : await stripe.request('GET', path)
  return { pending_downgrade: savePending(deps, account, sub, null, actorId) }
}
