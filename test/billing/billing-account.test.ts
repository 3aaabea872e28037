import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { billingApp, stripeEvent, stripeSignature } from './billing-helpers'
import { startFakeStripe, subscription, type FakeStripe } from './fake-stripe'

let fake: FakeStripe
let t: TestApp
let owner: TestUser
beforeEach(async () => {
  fake = startFakeStripe({ 'POST /v1/customers': () => ({ id: 'cus_new' }) })
  t = billingApp(fake)
  owner = await createUser(t)
})
afterEach(() => {
  t.close()
  fake.stop()
})

/** Makes the owner's account a paying customer on `plan` with subscription sub_1. */
async function subscribe(plan: 'pro' | 'studio') {
  await t.deps.db.write((q) => q.update(accounts).set({ plan, stripeCustomerId: 'cus_1', stripeSubscriptionId: 'sub_1' }).where(eq(accounts.id, owner.account.id)))
}

describe('customer portal, invoices, payment methods', () => {
  it('opens the portal for the customer', async () => {
    expect((await t.request('POST', '/api/billing/portal', { token: owner.token })).status).toBe(400)
    await subscribe('pro')
    fake.on('POST /v1/billing_portal/sessions', () => ({ url: 'https://billing.stripe.test/p/1' }))
    const res = await t.request('POST', '/api/billing/portal', { token: owner.token })
    expect(res.body).toEqual({ ok: true, data: { url: 'https://billing.stripe.test/p/1' } })
    expect(Object.fromEntries(fake.calls.at(-1)!.form)).toEqual({ customer: 'cus_1', return_url: 'http://glitchbox.test/billing' })
  })

  it('lists invoices (none before there is a customer)', async () => {
    expect((await t.request('GET', '/api/billing/invoices', { token: owner.token })).body.data).toEqual([])
    expect(fake.calls).toHaveLength(0)
    await subscribe('pro')
    fake.on('GET /v1/invoices', () => ({
      data: [{ id: 'in_1', number: 'A-1', amount_due: 1900, amount_paid: 1900, currency: 'usd', status: 'paid', created: 1_767_000_000, hosted_invoice_url: 'https://i.test/1', invoice_pdf: 'https://i.test/1.pdf', lines: {} }],
    }))
    const res = await t.request('GET', '/api/billing/invoices', { token: owner.token })
    expect(res.body.data).toEqual([
      { id: 'in_1', number: 'A-1', amount_due: 1900, amount_paid: 1900, currency: 'usd', status: 'paid', created: new Date(1_767_000_000_000).toISOString(), hosted_invoice_url: 'https://i.test/1', invoice_pdf: 'https://i.test/1.pdf' },
    ])
    expect(fake.calls.at(-1)!.query).toBe('customer=cus_1&limit=50')
  })

  it('lists cards with the default marked', async () => {
    await subscribe('pro')
    fake.on('GET /v1/customers/cus_1', () => ({ id: 'cus_1', invoice_settings: { default_payment_method: 'pm_2' } }))
    fake.on('GET /v1/customers/cus_1/payment_methods', () => ({
      data: [
        { id: 'pm_1', customer: 'cus_1', card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030 } },
        { id: 'pm_2', customer: 'cus_1', card: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2029 } },
      ],
    }))
    const res = await t.request('GET', '/api/billing/payment-methods', { token: owner.token })
    expect(res.body.data).toEqual([
      { id: 'pm_1', brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030, is_default: false },
      { id: 'pm_2', brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2029, is_default: true },
    ])
  })

  it('creates a setup intent, creating the customer first when needed', async () => {
    fake.on('POST /v1/setup_intents', () => ({ id: 'seti_1', client_secret: 'seti_1_secret' }))
    const res = await t.request('POST', '/api/billing/setup-intent', { token: owner.token })
    expect(res.body.data).toEqual({ client_secret: 'seti_1_secret' })
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /v1/customers', 'POST /v1/setup_intents'])
    expect(Object.fromEntries(fake.calls[1]!.form)).toEqual({ customer: 'cus_new', usage: 'off_session', 'payment_method_types[0]': 'card' })
    const acc = (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id))))[0]!
    expect(acc.stripeCustomerId).toBe('cus_new')
  })

  it('attaches a card and makes it the default', async () => {
    await subscribe('pro')
    fake.on('POST /v1/payment_methods/pm_9/attach', () => ({ id: 'pm_9', customer: 'cus_1' }))
    fake.on('POST /v1/customers/cus_1', () => ({ id: 'cus_1' }))
    const res = await t.request('POST', '/api/billing/payment-method', { token: owner.token, body: { payment_method_id: 'pm_9' } })
    expect(res.status).toBe(200)
    expect(fake.calls[0]!.form.get('customer')).toBe('cus_1')
    expect(fake.calls[1]!.body).toBe('invoice_settings%5Bdefault_payment_method%5D=pm_9')
    expect((await t.request('POST', '/api/billing/payment-method', { token: owner.token, body: {} })).status).toBe(400)
  })

  it("detaches the customer's own card and refuses another customer's", async () => {
    await subscribe('pro')
    fake.on('GET /v1/payment_methods/pm_1', () => ({ id: 'pm_1', customer: 'cus_1' }))
    fake.on('GET /v1/payment_methods/pm_x', () => ({ id: 'pm_x', customer: 'cus_other' }))
    fake.on('POST /v1/payment_methods/*/detach', () => ({ id: 'pm', customer: null }))
    expect((await t.request('DELETE', '/api/billing/payment-method', { token: owner.token, body: { payment_method_id: 'pm_x' } })).status).toBe(404)
    expect((await t.request('DELETE', '/api/billing/payment-method', { token: owner.token, body: { payment_method_id: 'pm_1' } })).status).toBe(200)
    expect(fake.callsTo('POST', /detach$/).map((c) => c.path)).toEqual(['/v1/payment_methods/pm_1/detach'])
  })
})

describe('scheduled downgrades', () => {
  const periodEnd = 1_770_000_000

  it('to free: the subscription ends at period end; cancelling the downgrade renews it', async () => {
    await subscribe('pro')
    fake.on('POST /v1/subscriptions/sub_1', (c) => subscription({ periodEnd, cancelAtPeriodEnd: c.form.get('cancel_at_period_end') === 'true' }))
    const res = await t.request('POST', '/api/billing/schedule-downgrade', { token: owner.token, body: { plan: 'free' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ pending_downgrade: { plan: 'free', effective_at: new Date(periodEnd * 1000).toISOString() } })
    expect(fake.calls.at(-1)!.body).toBe('cancel_at_period_end=true')
    expect((await t.request('GET', '/api/billing/pending-downgrade', { token: owner.token })).body.data.pending_downgrade.plan).toBe('free')
    const sub = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(sub).toMatchObject({ plan: 'pro', cancel_at_period_end: true, pending_downgrade: { plan: 'free' } })

    const cancel = await t.request('DELETE', '/api/billing/pending-downgrade', { token: owner.token })
    expect(cancel.body.data).toEqual({ pending_downgrade: null })
    expect(fake.calls.at(-1)!.body).toBe('cancel_at_period_end=false')
    expect((await t.request('GET', '/api/billing/pending-downgrade', { token: owner.token })).body.data).toEqual({ pending_downgrade: null })
    expect((await t.request('DELETE', '/api/billing/pending-downgrade', { token: owner.token })).status).toBe(404)
  })

  it('to pro: recorded now, applied when a new period starts, then Stripe moves to the pro price', async () => {
    await subscribe('studio')
    fake.on('GET /v1/subscriptions/sub_1', () => subscription({ price: 'price_studio', periodEnd }))
    const res = await t.request('POST', '/api/billing/schedule-downgrade', { token: owner.token, body: { plan: 'pro' } })
    expect(res.body.data.pending_downgrade).toEqual({ plan: 'pro', effective_at: new Date(periodEnd * 1000).toISOString() })
    expect(fake.callsTo('POST', /subscriptions/)).toHaveLength(0)

    // Stripe renews the subscription on the studio price and says so in a webhook; the downgrade's period is over.
    t.clock.set(periodEnd * 1000 + 60_000)
    fake.on('POST /v1/subscriptions/sub_1', (c) => subscription({ price: c.form.get('items[0][price]') ?? 'price_studio', periodEnd: periodEnd + 2_600_000 }))
    const renewed = JSON.stringify(stripeEvent('evt_renew', 'customer.subscription.updated', subscription({ price: 'price_studio', periodEnd: periodEnd + 2_600_000 })))
    const hook = await t.request('POST', '/api/billing/webhook', {
      body: renewed,
      headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(renewed, Math.floor(t.clock.now().getTime() / 1000)) },
    })
    expect(hook.status).toBe(200)
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id))))[0]!.plan).toBe('pro')

    await t.runner.drain()
    const update = fake.callsTo('POST', /^\/v1\/subscriptions\/sub_1$/)
    expect(update).toHaveLength(1)
    expect(Object.fromEntries(update[0]!.form)).toEqual({ 'items[0][id]': 'si_1', 'items[0][price]': 'price_pro', proration_behavior: 'none' })
    const after = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(after).toMatchObject({ plan: 'pro', pending_downgrade: null })
  })

  it.each([
    ['free', 'free', 'the account has no subscription to downgrade'],
    ['pro', 'pro', 'the account is on the Pro plan; a downgrade must go to a lower plan'],
  ] as const)('on %s, downgrading to %s answers 400', async (plan, target, message) => {
    if (plan === 'pro') await subscribe('pro')
    const res = await t.request('POST', '/api/billing/schedule-downgrade', { token: owner.token, body: { plan: target } })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe(message)
  })
})

describe('job billing.cancel-subscription', () => {
  it('cancels the subscription at Stripe, and treats one already gone as done', async () => {
    fake.on('DELETE /v1/subscriptions/sub_1', () => subscription({ status: 'canceled' }))
    fake.on('DELETE /v1/subscriptions/sub_gone', () => ({ status: 404, body: { error: { message: 'No such subscription', code: 'resource_missing' } } }))
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'billing.cancel-subscription', payload: { subscriptionId: 'sub_1', accountId: owner.account.id } })
    await t.deps.jobs.enqueue(t.deps.db, { kind: 'billing.cancel-subscription', payload: { subscriptionId: 'sub_gone', accountId: owner.account.id } })
    await t.runner.drain()
    expect(fake.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['DELETE /v1/subscriptions/sub_1', 'DELETE /v1/subscriptions/sub_gone'])
    expect(fake.calls[0]!.headers.get('authorization')).toBe('Bearer sk_test_123')
    expect(await t.deps.jobs.counts(t.deps.db)).toEqual({ done: 2 })
  })
})
