import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'
import { PlanFeatures, PlanLimits, PlanUsage } from './team'

export const PendingDowngrade = z.object({ plan: z.enum(['free', 'pro']), effective_at: isoDate.nullable() }).nullable()
export const SubscriptionResponse = z.object({
  plan: z.string(),
  tier: z.number().int(),
  status: z.string().describe("Stripe's subscription status, or none"),
  current_period_end: isoDate.nullable(),
  cancel_at_period_end: z.boolean(),
  pending_downgrade: PendingDowngrade,
  usage: PlanUsage,
  limits: PlanLimits,
  features: PlanFeatures,
})
export const CheckoutResponse = z.object({ url: z.string(), session_id: z.string() })
export const VerifySessionResponse = z.object({ plan: z.string(), status: z.string() })
export const PortalResponse = z.object({ url: z.string() })
export const InvoiceListResponse = z.array(
  z.object({
    id: z.string(),
    number: z.string().nullable(),
    amount_due: z.number().int(),
    amount_paid: z.number().int(),
    currency: z.string(),
    status: z.string().nullable(),
    created: isoDate.nullable(),
    hosted_invoice_url: z.string().nullable(),
    invoice_pdf: z.string().nullable(),
  }),
)
export const PaymentMethodListResponse = z.array(
  z.object({
    id: z.string(),
    brand: z.string().nullable(),
    last4: z.string().nullable(),
    exp_month: z.number().int().nullable(),
    exp_year: z.number().int().nullable(),
    is_default: z.boolean(),
  }),
)
export const SetupIntentResponse = z.object({ client_secret: z.string() })
export const PendingDowngradeResponse = z.object({ pending_downgrade: PendingDowngrade })
/** What Stripe posts: an event, read by its type (the body is checked against `Stripe-Signature` byte for byte). */
export const StripeEvent = z.looseObject({ id: z.string(), type: z.string().describe('e.g. `checkout.session.completed`, `customer.subscription.updated`'), data: z.looseObject({ object: z.looseObject({}) }) })
export const StripeWebhookResponse = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type SubscriptionResponse = z.output<typeof SubscriptionResponse>
export type CheckoutResponse = z.output<typeof CheckoutResponse>
export type VerifySessionResponse = z.output<typeof VerifySessionResponse>
export type PortalResponse = z.output<typeof PortalResponse>
export type InvoiceListResponse = z.output<typeof InvoiceListResponse>
export type PaymentMethodListResponse = z.output<typeof PaymentMethodListResponse>
export type SetupIntentResponse = z.output<typeof SetupIntentResponse>
export type PendingDowngradeResponse = z.output<typeof PendingDowngradeResponse>
export type StripeWebhookResponse = z.output<typeof StripeWebhookResponse>

// Every route but the subscription view calls Stripe: 400 when billing is not configured, 502 when Stripe fails.
export const billingDocs: OperationDocs = {
  'POST /api/billing/webhook': {
    data: StripeWebhookResponse,
    description: 'Called by Stripe, signed with the endpoint secret (`Stripe-Signature`)',
    requestBody: { 'application/json': StripeEvent },
  },
  'GET /api/billing/subscription': { data: SubscriptionResponse },
  'POST /api/billing/create-checkout': { data: CheckoutResponse, errors: [502] },
  'GET /api/billing/verify-session': { data: VerifySessionResponse, errors: [502] },
  'POST /api/billing/portal': { data: PortalResponse, errors: [502] },
  'GET /api/billing/invoices': { data: InvoiceListResponse, errors: [502] },
  'GET /api/billing/payment-methods': { data: PaymentMethodListResponse, errors: [502] },
  'POST /api/billing/setup-intent': { data: SetupIntentResponse, errors: [502] },
  'POST /api/billing/payment-method': { data: MessageResponse, errors: [502] },
  'DELETE /api/billing/payment-method': { data: MessageResponse, errors: [502] },
  'POST /api/billing/schedule-downgrade': { data: PendingDowngradeResponse, errors: [502] },
  'GET /api/billing/pending-downgrade': { data: PendingDowngradeResponse },
  'DELETE /api/billing/pending-downgrade': { data: PendingDowngradeResponse, errors: [502] },
}
