import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { accounts } from '../../src/modules/auth/accounts.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'
import { billingApp } from './billing-helpers'
import { startFakeStripe, subscription, type FakeStripe } from './fake-stripe'

let fake: FakeStripe
let t: TestApp
let owner: TestUser
beforeEach(async () => {
  fake = startFakeStripe({
    'POST /v1/customers': () => ({ id: 'cus_1', object: 'customer' }),
    'POST /v1/checkout/sessions': () => ({ id: 'cs_1', url: 'https://checkout.stripe.test/cs_1' }),
  })
  t = billingApp(fake)
  owner = await createUser(t, { name: 'Ada' })
})
afterEach(() => {
  t.close()
  fake.stop()
})

const planOf = async (accountId: string) => (await t.deps.db.read((q) => q.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId))))[0]!.plan

describe('billing without Stripe configured', () => {
  it.each([
    ['POST', '/api/billing/create-checkout', { plan: 'pro' }],
    ['GET', '/api/billing/verify-session?session_id=cs_1', undefined],
    ['POST', '/api/billing/portal', undefined],
    ['GET', '/api/billing/invoices', undefined],
    ['GET', '/api/billing/payment-methods', undefined],
    ['POST', '/api/billing/setup-intent', undefined],
    ['POST', '/api/billing/payment-method', { payment_method_id: 'pm_1' }],
    ['DELETE', '/api/billing/payment-method', { payment_method_id: 'pm_1' }],
    ['POST', '/api/billing/schedule-downgrade', { plan: 'free' }],
    ['GET', '/api/billing/pending-downgrade', undefined],
    ['DELETE', '/api/billing/pending-downgrade', undefined],
    ['POST', '/api/billing/webhook', { id: 'evt_1' }],
  ])('%s %s answers 400 "billing is not configured"', async (method, path, body) => {
    const plain = createTestApp()
    try {
      const u = await createUser(plain)
      const res = await plain.request(method, path, { token: u.token, body })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ ok: false, error: 'billing is not configured' })
    } finally {
      plain.close()
    }
  })

  it('still reports plan, usage, limits and features', async () => {
    const plain = createTestApp()
    try {
      const u = await createUser(plain, { plan: 'pro' })
      const res = await plain.request('GET', '/api/billing/subscription', { token: u.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        plan: 'pro',
        tier: 2,
        status: 'none',
        current_period_end: null,
        cancel_at_period_end: false,
        pending_downgrade: null,
        usage: { projects: 0, reports: 0, upload_bytes: 0, seats: 1, storage_bytes: 0 },
        limits: { projects: 10, reports: 50_000, upload_bytes: 25 * 1024 ** 3, seats: 15 },
        features: expect.objectContaining({ events: true, triage: true, session_replays: false }),
      })
    } finally {
      plain.close()
    }
  })
})

describe('who may manage billing', () => {
  it.each([
    ['owner', 200],
    ['admin', 200],
    ['member', 403],
  ] as const)('%s reading the subscription answers %i', async (role, status) => {
    const actor = role === 'owner' ? owner : await addMember(t, owner, role)
    const res = await t.request('GET', '/api/billing/subscription', { token: actor.token })
    expect(res.status).toBe(status)
    if (status === 403) expect(res.body.error).toBe('you need the billing.manage permission')
    const portal = await t.request('POST', '/api/billing/portal', { token: actor.token })
    expect(portal.status).toBe(status === 403 ? 403 : 400)
  })

  it('a member granted billing.manage may start a checkout; 401 without a session', async () => {
    const member = await addMember(t, owner, 'member', { overrides: { 'billing.manage': true } })
    expect((await t.request('POST', '/api/billing/create-checkout', { token: member.token, body: { plan: 'pro' } })).status).toBe(200)
    expect((await t.request('POST', '/api/billing/create-checkout', { body: { plan: 'pro' } })).status).toBe(401)
  })
})

describe('POST /api/billing/create-checkout', () => {
  it('creates the customer once and a subscription checkout for the plan price, form-encoded with pinned headers', async () => {
    const res = await t.request('POST', '/api/billing/create-checkout', { token: owner.token, body: { plan: 'pro' } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ url: 'https://checkout.stripe.test/cs_1', session_id: 'cs_1' })

    const [customer] = fake.callsTo('POST', /^\/v1\/customers$/)
    expect(customer!.form.get('email')).toBe(owner.user.email)
    expect(customer!.form.get('metadata[account_id]')).toBe(owner.account.id)
    const [checkout] = fake.callsTo('POST', /^\/v1\/checkout\/sessions$/)
    expect(checkout!.headers.get('authorization')).toBe('Bearer sk_test_123')
    expect(checkout!.headers.get('stripe-version')).toBe('2024-06-20')
    expect(checkout!.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    expect(checkout!.headers.get('content-type')).toBe('application/x-www-form-urlencoded')
    expect(checkout!.body).toContain('line_items%5B0%5D%5Bprice%5D=price_pro')
    expect(Object.fromEntries(checkout!.form)).toMatchObject({
      mode: 'subscription',
      customer: 'cus_1',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      success_url: 'http://glitchbox.test/billing/success?session_id={CHECKOUT_SESSION_ID}',
      client_reference_id: owner.account.id,
      'metadata[account_id]': owner.account.id,
      'subscription_data[metadata][account_id]': owner.account.id,
    })

    await t.request('POST', '/api/billing/create-checkout', { token: owner.token, body: { plan: 'studio' } })
    expect(fake.callsTo('POST', /^\/v1\/customers$/)).toHaveLength(1)
    expect(fake.callsTo('POST', /^\/v1\/checkout\/sessions$/)[1]!.form.get('line_items[0][price]')).toBe('price_studio')
  })

  it.each([{}, { plan: 'free' }, { plan: 'gold' }])('rejects body %j with 400', async (body) => {
    expect((await t.request('POST', '/api/billing/create-checkout', { token: owner.token, body })).status).toBe(400)
  })

  it("answers 502 with Stripe's error message when Stripe refuses", async () => {
    fake.on('POST /v1/customers', () => ({ status: 400, body: { error: { message: 'Invalid email address', type: 'invalid_request_error' } } }))
    const res = await t.request('POST', '/api/billing/create-checkout', { token: owner.token, body: { plan: 'pro' } })
    expect(res.status).toBe(502)
    expect(res.body).toEqual({ ok: false, error: 'Stripe: Invalid email address' })
  })
})

describe('GET /api/billing/verify-session', () => {
  const session = (o: { account: string; status?: string; payment?: string; price?: string }) => ({
    id: 'cs_1',
    status: o.status ?? 'complete',
    payment_status: o.payment ?? 'paid',
    client_reference_id: o.account,
    subscription: subscription({ id: 'sub_1', customer: 'cus_1', price: o.price ?? 'price_pro' }),
  })

  it('applies the plan of a paid session, idempotently', async () => {
    fake.on('GET /v1/checkout/sessions/*', () => session({ account: owner.account.id }))
    for (let i = 0; i < 2; i++) {
      const res = await t.request('GET', '/api/billing/verify-session?session_id=cs_1', { token: owner.token })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ plan: 'pro', status: 'complete' })
    }
    expect(fake.callsTo('GET', /^\/v1\/checkout\/sessions\/cs_1$/)[0]!.form.get('expand[0]')).toBe('subscription')
    const sub = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(sub).toMatchObject({ plan: 'pro', tier: 2, status: 'active', current_period_end: new Date(1_770_000_000_000).toISOString(), cancel_at_period_end: false })
    const [audits] = await t.deps.db.read((q) => rowsOf<{ n: number }>(q, sql`SELECT cast(count(*) AS int) AS n FROM audit_log WHERE action = 'billing.plan_changed'`))
    expect(audits!.n).toBe(1)
  })

  it('leaves the plan alone while the session is unpaid', async () => {
    fake.on('GET /v1/checkout/sessions/*', () => ({ ...session({ account: owner.account.id, status: 'open', payment: 'unpaid' }), subscription: null }))
    const res = await t.request('GET', '/api/billing/verify-session?session_id=cs_1', { token: owner.token })
    expect(res.body.data).toEqual({ plan: 'free', status: 'open' })
  })

  it("answers 404 for another account's session and 400 without session_id", async () => {
    fake.on('GET /v1/checkout/sessions/*', () => session({ account: 'someone-else' }))
    expect((await t.request('GET', '/api/billing/verify-session?session_id=cs_1', { token: owner.token })).status).toBe(404)
    expect(await planOf(owner.account.id)).toBe('free')
    expect((await t.request('GET', '/api/billing/verify-session', { token: owner.token })).status).toBe(400)
  })
})
