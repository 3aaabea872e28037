import type { AppDeps } from '../../app-deps'
import { badRequest, conflict, notFound } from '../../http/errors'
import type { Account } from '../auth/accounts.repository'
import { createAccountsRepository } from '../auth/accounts.repository'
import { accountUsage } from '../team/team.service'
import { createBillingRepository } from './billing.repository'
import { applySubscription, pendingView, priceOfPlan, type StripeSubscription } from './billing.sync'
import { featuresOf, limitsView, PLANS, type PlanKey } from '../auth/plans'
import { requireStripe, type StripeClient } from './stripe.client'

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null)
const fromUnix = (s: number | null | undefined) => (s ? new Date(s * 1000).toISOString() : null)

/** Who is paying: the account and the signed-in user acting for it. */
export interface Payer {
  account: Account
  email: string
}

const storedSubscription = (deps: AppDeps, accountId: string) => createBillingRepository({ db: deps.db }).subscriptionOf(accountId)

/** Plan, subscription state, usage, limits and features; works without Stripe (operator-set plans). */
export async function subscriptionView(deps: AppDeps, account: Account) {
  const plan = PLANS[account.plan as PlanKey]
  const row = await storedSubscription(deps, account.id)
  const now = deps.clock.now()
  return {
    plan: plan.key,
    tier: plan.tier,
    status: row?.status ?? 'none',
    current_period_end: iso(row?.currentPeriodEnd),
    cancel_at_period_end: row?.cancelAtPeriodEnd ?? false,
    pending_downgrade: pendingView(row),
    // Synchronous on the writer: the first read of an account's storage counts it and stores the count.
    usage: await accountUsage(deps.db, account, now),
    limits: limitsView(plan.key),
    features: featuresOf(plan.key),
  }
}

/** The account's Stripe customer, created on first use and remembered on the account. */
async function ensureCustomer(deps: AppDeps, stripe: StripeClient, payer: Payer): Promise<string> {
  const current = await customerOrNull(deps, payer.account.id)
  if (current) return current
  const customer = await stripe.request<{ id: string }>('POST', 'customers', { email: payer.email, name: payer.account.name, metadata: { account_id: payer.account.id } })
  const now = deps.clock.now()
  await createAccountsRepository({ db: deps.db }).update(payer.account.id, { stripeCustomerId: customer.id, updatedAt: now })
  return customer.id
}

/** The account's Stripe customer id, or null before its first payment step. */
async function customerOrNull(deps: AppDeps, accountId: string): Promise<string | null> {
  return (await createAccountsRepository({ db: deps.db }).byId(accountId))?.stripeCustomerId ?? null
}

/** Starts a Stripe Checkout for a paid plan's subscription. */
export async function createCheckout(deps: AppDeps, payer: Payer, plan: 'pro' | 'studio') {
  const stripe = requireStripe(deps.config)
  const price = priceOfPlan(deps.config, plan)
  if (!price) throw badRequest(`billing is not configured for the ${PLANS[plan].name} plan`)
  const live = await storedSubscription(deps, payer.account.id)
  if (payer.account.stripeSubscriptionId && live && !['canceled', 'incomplete_expired'].includes(live.status)) {
    throw conflict('the account already has a subscription; change plans in the billing portal')
  }
  const customer = await ensureCustomer(deps, stripe, payer)
  const base = deps.config.publicUrl
  const session = await stripe.request<{ id: string; url: string }>('POST', 'checkout/sessions', {
    mode: 'subscription',
    customer,
    line_items: [{ price, quantity: 1 }],
    success_url: `${base}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/billing`,
    client_reference_id: payer.account.id,
    metadata: { account_id: payer.account.id, plan },
    subscription_data: { metadata: { account_id: payer.account.id } },
  })
  return { url: session.url, session_id: session.id }
}

interface CheckoutSession {
  id: string
  status: string | null
  payment_status: string
  client_reference_id: string | null
  metadata?: Record<string, string>
  subscription: StripeSubscription | string | null
}

/** Reads a Checkout Session back after the redirect and, once paid, applies the subscribed plan. */
export async function verifySession(deps: AppDeps, account: Account, sessionId: string) {
  const stripe = requireStripe(deps.config)
  const session = await stripe.request<CheckoutSession>('GET', `checkout/sessions/${encodeURIComponent(sessionId)}`, { expand: ['subscription'] })
  if ((session.client_reference_id ?? session.metadata?.account_id) !== account.id) throw notFound('checkout session not found')
  const paid = session.status === 'complete' && ['paid', 'no_payment_required'].includes(session.payment_status)
  if (paid && session.subscription && typeof session.subscription === 'object') {
    const sub = session.subscription
    const plan = await applySubscription(deps, account.id, sub)
    return { plan, status: session.status }
  }
  const current = await createAccountsRepository({ db: deps.db }).byId(account.id)
  return { plan: current!.plan, status: session.status ?? 'open' }
}

/** A Stripe customer-portal link for the account's customer. */
export async function createPortal(deps: AppDeps, account: Account) {
  const stripe = requireStripe(deps.config)
  const customer = await customerOrNull(deps, account.id)
  if (!customer) throw badRequest('the account has no billing customer yet; subscribe to a plan first')
  const portal = await stripe.request<{ url: string }>('POST', 'billing_portal/sessions', { customer, return_url: `${deps.config.publicUrl}/billing` })
  return { url: portal.url }
}

interface StripeInvoice {
  id: string
  number: string | null
  amount_due: number
  amount_paid: number
  currency: string
  status: string | null
  created: number
  hosted_invoice_url: string | null
  invoice_pdf: string | null
}

/** The customer's invoices, newest first (Stripe's order). */
export async function listInvoices(deps: AppDeps, account: Account) {
  const stripe = requireStripe(deps.config)
  const customer = await customerOrNull(deps, account.id)
  if (!customer) return []
  const list = await stripe.request<{ data: StripeInvoice[] }>('GET', 'invoices', { customer, limit: 50 })
  return list.data.map((i) => ({
    id: i.id,
    number: i.number,
    amount_due: i.amount_due,
    amount_paid: i.amount_paid,
    currency: i.currency,
    status: i.status,
    created: fromUnix(i.created),
    hosted_invoice_url: i.hosted_invoice_url,
    invoice_pdf: i.invoice_pdf,
  }))
}

interface StripePaymentMethod {
  id: string
  customer: string | null
  card?: { brand: string; last4: string; exp_month: number; exp_year: number }
}

/** The customer's cards, with the one invoices are charged to marked as default. */
export async function listPaymentMethods(deps: AppDeps, account: Account) {
  const stripe = requireStripe(deps.config)
  const customer = await customerOrNull(deps, account.id)
  if (!customer) return []
  const path = `customers/${encodeURIComponent(customer)}`
  const [info, list] = await Promise.all([
    stripe.request<{ invoice_settings?: { default_payment_method?: string | null } }>('GET', path),
    stripe.request<{ data: StripePaymentMethod[] }>('GET', `${path}/payment_methods`, { type: 'card', limit: 100 }),
  ])
  const defaultId = info.invoice_settings?.default_payment_method ?? null
  return list.data.map((pm) => ({
    id: pm.id,
    brand: pm.card?.brand ?? null,
    last4: pm.card?.last4 ?? null,
    exp_month: pm.card?.exp_month ?? null,
    exp_year: pm.card?.exp_year ?? null,
    is_default: pm.id === defaultId,
  }))
}

/** A SetupIntent whose client secret lets the browser collect a card for later charges. */
export async function createSetupIntent(deps: AppDeps, payer: Payer) {
  const stripe = requireStripe(deps.config)
  const customer = await ensureCustomer(deps, stripe, payer)
  const intent = await stripe.request<{ client_secret: string }>('POST', 'setup_intents', { customer, usage: 'off_session', payment_method_types: ['card'] })
  return { client_secret: intent.client_secret }
}

/** Attaches a payment method to the customer and makes it the default for invoices. */
export async function attachPaymentMethod(deps: AppDeps, payer: Payer, paymentMethodId: string) {
  const stripe = requireStripe(deps.config)
  const customer = await ensureCustomer(deps, stripe, payer)
  await stripe.request('POST', `payment_methods/${encodeURIComponent(paymentMethodId)}/attach`, { customer })
  await stripe.request('POST', `customers/${encodeURIComponent(customer)}`, { invoice_settings: { default_payment_method: paymentMethodId } })
}

/** Detaches one of the customer's own payment methods (another customer's is "not found"). */
export async function detachPaymentMethod(deps: AppDeps, account: Account, paymentMethodId: string) {
  const stripe = requireStripe(deps.config)
  const customer = await customerOrNull(deps, account.id)
  const path = `payment_methods/${encodeURIComponent(paymentMethodId)}`
  const pm = customer ? await stripe.request<StripePaymentMethod>('GET', path) : null
  if (!pm || pm.customer !== customer) throw notFound('payment method not found')
  await stripe.request('POST', `${path}/detach`)
}
