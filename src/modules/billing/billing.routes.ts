import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { rawBodyCopy } from '../../http/raw-body'
import { cancelDowngrade, pendingDowngrade, scheduleDowngrade } from './billing.downgrade'
import { checkoutBody, downgradeBody, paymentMethodBody, verifySessionQuery } from './billing.schemas'
import {
  attachPaymentMethod,
  createCheckout,
  createPortal,
  createSetupIntent,
  detachPaymentMethod,
  listInvoices,
  listPaymentMethods,
  subscriptionView,
  verifySession,
} from './billing.service'
import { handleStripeWebhook } from './billing.webhook'
import { requireStripe } from './stripe.client'

const tags = ['Billing']
const security = [{ session: [] }]
const perm = 'billing.manage' as const
/** Stripe signs the exact bytes it sent: the webhook's body is copied as it arrives. */
const rawWebhookBody = (deps: AppDeps) => rawBodyCopy(deps, { name: 'billing-webhook-raw-body', marker: '/billing/webhook', path: /\/api(?:\/v1)?\/billing\/webhook$/ })

/** Billing routes of spec 4.12 (owner and admin, through `billing.manage`) and Stripe's webhook. */
export function billingRoutes(deps: AppDeps) {
  const configured = () => void requireStripe(deps.config)

  const webhookBody = rawWebhookBody(deps)
  return new Elysia()
    .use(webhookBody.plugin)
    .use(authPlugin(deps))
    .post('/billing/webhook', async ({ request, headers }) => handleStripeWebhook(deps, headers['stripe-signature'], await webhookBody.bodyOf(request)), {
      detail: { tags, summary: "Stripe's webhook (signed with the endpoint secret)" },
    })
    .get('/billing/subscription', ({ account }) => subscriptionView(deps, account), { accountPermission: perm, detail: { tags, summary: 'Plan, usage, limits and features', security } })
    .group('/billing', { accountPermission: perm, beforeHandle: configured }, (g) =>
      g
        .post('/create-checkout', ({ account, user, body }) => createCheckout(deps, { account, email: user.email }, body.plan), {
          body: checkoutBody,
          detail: { tags, summary: 'Start a Stripe Checkout for a paid plan', security },
        })
        .get('/verify-session', ({ account, query }) => verifySession(deps, account, query.session_id), {
          query: verifySessionQuery,
          detail: { tags, summary: 'Apply a completed checkout', security },
        })
        .post('/portal', ({ account }) => createPortal(deps, account), { detail: { tags, summary: 'Stripe customer portal link', security } })
        .get('/invoices', ({ account }) => listInvoices(deps, account), { detail: { tags, summary: 'Invoices', security } })
        .get('/payment-methods', ({ account }) => listPaymentMethods(deps, account), { detail: { tags, summary: 'Saved cards', security } })
        .post('/setup-intent', ({ account, user }) => createSetupIntent(deps, { account, email: user.email }), { detail: { tags, summary: 'Collect a card', security } })
        .post(
          '/payment-method',
          async ({ account, user, body }) => {
            await attachPaymentMethod(deps, { account, email: user.email }, body.payment_method_id)
            return { message: 'Payment method saved as default' }
          },
          { body: paymentMethodBody, detail: { tags, summary: 'Attach a card and make it the default', security } },
        )
        .delete(
          '/payment-method',
          async ({ account, body }) => {
            await detachPaymentMethod(deps, account, body.payment_method_id)
            return { message: 'Payment method removed' }
          },
          { body: paymentMethodBody, detail: { tags, summary: 'Detach a card', security } },
        )
        .post('/schedule-downgrade', ({ account, user, body }) => scheduleDowngrade(deps, account, body.plan, user.id), {
          body: downgradeBody,
          detail: { tags, summary: 'Downgrade at the end of the period', security },
        })
        .get('/pending-downgrade', ({ account }) => pendingDowngrade(deps, account), { detail: { tags, summary: 'The scheduled downgrade', security } })
        .delete('/pending-downgrade', ({ account, user }) => cancelDowngrade(deps, account, user.id), { detail: { tags, summary: 'Cancel the scheduled downgrade', security } }),
    )
}
