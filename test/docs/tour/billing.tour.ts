import { stripeEvent, stripeSignature } from '../../billing/billing-helpers'
import { subscription } from '../../billing/fake-stripe'
import { raw, type Tour } from './tour.types'

// Stripe signs the exact bytes; Prism re-serialises JSON bodies, which keeps compact JSON as it is.
const INVOICE_PAID = JSON.stringify(stripeEvent('evt_tour', 'invoice.paid', { id: 'in_2', customer: 'cus_1' }))

/** Billing of a paying account (customer cus_1, subscription sub_1 on the fake Stripe). */
export const billingTour: Tour = {
  'GET /api/billing/subscription': { as: 'payer' },
  'POST /api/billing/create-checkout': { as: 'payer', body: () => ({ plan: 'pro' }) },
  'GET /api/billing/verify-session': {
    as: 'payer',
    before: (w) =>
      w.fakes.stripe.on('GET /v1/checkout/sessions/*', () => ({
        id: 'cs_1',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: w.payer.account.id,
        subscription: subscription({ id: 'sub_1', customer: 'cus_1', price: 'price_studio', periodEnd: 1_800_000_000 }),
      })),
    query: () => ({ session_id: 'cs_1' }),
  },
  'POST /api/billing/portal': { as: 'payer' },
  'GET /api/billing/invoices': { as: 'payer' },
  'GET /api/billing/payment-methods': { as: 'payer' },
  'POST /api/billing/setup-intent': { as: 'payer' },
  'POST /api/billing/payment-method': { as: 'payer', body: () => ({ payment_method_id: 'pm_9' }) },
  'DELETE /api/billing/payment-method': { as: 'payer', body: () => ({ payment_method_id: 'pm_9' }) },
  'POST /api/billing/schedule-downgrade': { as: 'payer', body: () => ({ plan: 'pro' }) },
  'GET /api/billing/pending-downgrade': { as: 'payer' },
  'DELETE /api/billing/pending-downgrade': { as: 'payer' },
  'POST /api/billing/webhook': {
    as: 'anonymous',
    body: () => raw(INVOICE_PAID, 'application/json'),
    headers: (w) => ({ 'stripe-signature': stripeSignature(INVOICE_PAID, Math.floor(w.t.clock.now().getTime() / 1000)) }),
  },
}
