import type { AppDeps } from '../../app-deps'
import { forgetSdkCallers } from '../../http/sdk-callers'
import type { Config } from '../../config/config'
import type { Seam } from '../../db/client'
import { createAccountsRepository } from '../auth/accounts.repository'
import { recordAudit } from '../activity/activity.service'
import { createBillingRepository } from './billing.repository'
import type { PlanKey } from '../auth/plans'

/** The fields of a Stripe subscription (API version 2024-06-20) that billing reads. */
export interface StripeSubscription {
  id: string
  customer: string
  status: string
  cancel_at_period_end: boolean
  current_period_end: number
  metadata?: Record<string, string>
  items: { data: { id: string; price: { id: string } }[] }
}

/** Subscription states in which the customer keeps the paid plan. */
const PAYING = new Set(['active', 'trialing', 'past_due'])
/** States that end the paid plan. */
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused'])

/** The plan a Stripe price id stands for, from the configured price ids. */
export function planOfPrice(config: Config, priceId: string | undefined): PlanKey | null {
  if (priceId && priceId === config.stripePricePro) return 'pro'
  if (priceId && priceId === config.stripePriceStudio) return 'studio'
  return null
}

/** The configured price id of a paid plan. */
export const priceOfPlan = (config: Config, plan: 'pro' | 'studio') => (plan === 'pro' ? config.stripePricePro : config.stripePriceStudio)

const periodEnd = (s: StripeSubscription) => new Date(s.current_period_end * 1000)

/**
 * Brings an account's plan and stored subscription in line with a subscription Stripe reported.
 * Applying the same subscription twice changes nothing. A downgrade to pro scheduled for the end of
 * the period takes effect once that period is over: the plan drops at once and a job moves the
 * Stripe subscription to the pro price. Runs in its own write, or in the caller's when there is one.
 */
export async function applySubscription(deps: AppDeps, accountId: string, sub: StripeSubscription): Promise<PlanKey> {
  const applied = await deps.db.write(async (tx) => {
    const now = deps.clock.now()
    const accountsRepo = createAccountsRepository({ db: deps.db })
    const account = await accountsRepo.byId(accountId)
    if (!account) return 'free'
    // An old subscription ending after the customer subscribed again must not touch the new one.
    if (ENDED.has(sub.status) && account.stripeSubscriptionId && account.stripeSubscriptionId !== sub.id) return account.plan as PlanKey
    const stored = await createBillingRepository({ db: deps.db }).subscriptionOf(accountId)
    const priceId = sub.items.data[0]?.price.id
    let plan = account.plan as PlanKey
    let pendingPlan = stored?.pendingPlan ?? null
    let pendingEffectiveAt = stored?.pendingEffectiveAt ?? null
    if (ENDED.has(sub.status)) {
      plan = 'free'
      pendingPlan = null
      pendingEffectiveAt = null
    } else if (PAYING.has(sub.status)) {
      plan = planOfPrice(deps.config, priceId) ?? plan
      if (pendingPlan === 'pro' && pendingEffectiveAt && now.getTime() >= pendingEffectiveAt.getTime()) {
        if (plan === 'pro') {
          pendingPlan = null
          pendingEffectiveAt = null
        } else {
          plan = 'pro'
          await deps.jobs.enqueue(tx, {
            kind: 'billing.apply-downgrade',
            payload: { accountId, subscriptionId: sub.id },
            idempotencyKey: `billing.apply-downgrade:${sub.id}:${pendingEffectiveAt.getTime()}`,
          })
        }
      }
    }
    const subscriptionId = ENDED.has(sub.status) ? null : sub.id
    await saveSubscription(deps.db, accountId, sub, { subscriptionId, pendingPlan, pendingEffectiveAt }, now)
    await accountsRepo.update(accountId, { plan, stripeCustomerId: account.stripeCustomerId ?? sub.customer, stripeSubscriptionId: subscriptionId, updatedAt: now })
    if (plan !== account.plan) {
      await recordAudit(tx, now, { accountId, actorId: null, action: 'billing.plan_changed', details: { from: account.plan, to: plan, subscription_status: sub.status } })
    }
    return plan
  })
  // Once the write is done (a request answered in between would cache the plan it replaces), not in
  // its callback, which the group commit may run twice.
  forgetSdkCallers(deps.db)
  return applied
}

/** Stores what Stripe reported about an account's subscription, with the pending downgrade to keep. */
export async function saveSubscription(
  db: Seam,
  accountId: string,
  sub: StripeSubscription,
  o: { subscriptionId: string | null; pendingPlan: 'free' | 'pro' | null; pendingEffectiveAt: Date | null },
  now: Date,
): Promise<void> {
  const row = {
    ...o,
    status: sub.status,
    priceId: sub.items.data[0]?.price.id ?? null,
    currentPeriodEnd: periodEnd(sub),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    updatedAt: now,
  }
  await createBillingRepository({ db }).saveSubscription(accountId, row)
}

/** A stored pending downgrade as the API shows it, or null. */
export function pendingView(row: { pendingPlan: 'free' | 'pro' | null; pendingEffectiveAt: Date | null } | undefined) {
  return row?.pendingPlan ? { plan: row.pendingPlan, effective_at: row.pendingEffectiveAt?.toISOString() ?? null } : null
}

/** The account a Stripe customer belongs to, falling back to the account id we put in the metadata. */
export async function accountOfCustomer(db: Seam, customerId: string, metadataAccountId?: string): Promise<string | null> {
  const accountsRepo = createAccountsRepository({ db })
  const byCustomer = await accountsRepo.idOfCustomer(customerId)
  if (byCustomer || !metadataAccountId) return byCustomer
  return (await accountsRepo.byId(metadataAccountId))?.id ?? null
}
