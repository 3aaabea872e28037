import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import type { Account } from '../auth/accounts.repository'
import { recordAudit } from '../activity/activity.service'
import { createBillingRepository } from './billing.repository'
import { pendingView, saveSubscription, type StripeSubscription } from './billing.sync'
import { PLANS, type PlanKey } from '../auth/plans'
import { requireStripe } from './stripe.client'

const subscriptionPath = (id: string) => `subscriptions/${encodeURIComponent(id)}`

/** Saves the pending downgrade (or its absence) with what Stripe says about the subscription now. */
async function savePending(deps: AppDeps, account: Account, sub: StripeSubscription, pendingPlan: 'free' | 'pro' | null, actorId: string) {
  const now = deps.clock.now()
  const pending = { pendingPlan, pendingEffectiveAt: pendingPlan ? new Date(sub.current_period_end * 1000) : null }
  await deps.db.write(async (tx) => {
    await saveSubscription(deps.db, account.id, sub, { subscriptionId: sub.id, ...pending }, now)
    await recordAudit(tx, now, { accountId: account.id, actorId, action: pendingPlan ? 'billing.downgrade_scheduled' : 'billing.downgrade_cancelled', details: { plan: pendingPlan } })
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
  return { pending_downgrade: await savePending(deps, account, sub, plan, actorId) }
}

/** The scheduled downgrade, if any. */
export async function pendingDowngrade(deps: AppDeps, account: Account) {
  const row = await createBillingRepository({ db: deps.db }).subscriptionOf(account.id)
  return { pending_downgrade: pendingView(row) }
}

/** Cancels the scheduled downgrade: the subscription renews on its current plan. */
export async function cancelDowngrade(deps: AppDeps, account: Account, actorId: string) {
  const stripe = requireStripe(deps.config)
  const row = await createBillingRepository({ db: deps.db }).subscriptionOf(account.id)
  if (!row?.pendingPlan || !account.stripeSubscriptionId) throw notFound('no downgrade is scheduled')
  const path = subscriptionPath(account.stripeSubscriptionId)
  const sub: StripeSubscription = row.cancelAtPeriodEnd ? await stripe.request('POST', path, { cancel_at_period_end: false }) : await stripe.request('GET', path)
  return { pending_downgrade: await savePending(deps, account, sub, null, actorId) }
}
