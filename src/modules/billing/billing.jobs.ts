import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { applySubscription, priceOfPlan, type StripeSubscription } from './billing.sync'
import { StripeError, stripeClient } from './stripe.client'

/**
 * Billing jobs: cancelling the subscription of a deleted account, and switching a subscription
 * to the pro price once a scheduled downgrade's period is over.
 */
export function billingJobs(deps: AppDeps): DomainJobs {
  return {
    handlers: [
      {
        kind: 'billing.cancel-subscription',
        async run({ subscriptionId, accountId }: { subscriptionId: string; accountId: string }, ctx) {
          const stripe = stripeClient(deps.config)
          if (!stripe) {
            deps.logger.warn('subscription not cancelled: billing is not configured', { account_id: accountId, subscription_id: subscriptionId })
            return
          }
          try {
            await stripe.request('DELETE', `subscriptions/${encodeURIComponent(subscriptionId)}`, {}, ctx.signal)
          } catch (e) {
            // Already gone at Stripe: nothing is left to cancel.
            if (e instanceof StripeError && e.httpStatus === 404) return
            throw e
          }
        },
      },
      {
        kind: 'billing.apply-downgrade',
        async run({ subscriptionId, accountId }: { subscriptionId: string; accountId: string }, ctx) {
          const stripe = stripeClient(deps.config)
          const price = priceOfPlan(deps.config, 'pro')
          if (!stripe || !price) return
          const path = `subscriptions/${encodeURIComponent(subscriptionId)}`
          let sub = await stripe.request<StripeSubscription>('GET', path, {}, ctx.signal)
          const item = sub.items.data[0]
          if (item && item.price.id !== price) {
            sub = await stripe.request<StripeSubscription>('POST', path, { items: [{ id: item.id, price }], proration_behavior: 'none' }, ctx.signal)
          }
          await applySubscription(deps, accountId, sub)
        },
      },
    ],
  }
}
