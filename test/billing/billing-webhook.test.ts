import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { accounts } from '../../src/modules/auth/accounts.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'
import { billingApp, stripeEvent, stripeSignature } from './billing-helpers'
import { startFakeStripe, subscription, type FakeStripe } from './fake-stripe'

let fake: FakeStripe
let t: TestApp
let owner: TestUser
beforeEach(async () => {
  fake = startFakeStripe()
  t = billingApp(fake)
  owner = await createUser(t)
  await t.deps.db.write((q) => q.update(accounts).set({ stripeCustomerId: 'cus_1' }).where(eq(accounts.id, owner.account.id)))
})
afterEach(() => {
  t.close()
  fake.stop()
})

const now = () => Math.floor(t.clock.now().getTime() / 1000)
const planOf = async () => (await t.deps.db.read((q) => q.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, owner.account.id))))[0]!.plan

/** Posts `event` as Stripe does: a JSON body (spaced as Stripe prints it) and its signature header. */
function deliver(event: unknown, o: { t?: number; signature?: string; body?: string } = {}) {
  const body = o.body ?? JSON.stringify(event, null, 2)
  return t.request('POST', '/api/billing/webhook', {
    body,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': o.signature ?? stripeSignature(body, o.t ?? now()) },
  })
}

describe('POST /api/billing/webhook signature', () => {
  const event = () => stripeEvent('evt_sig', 'customer.subscription.updated', subscription({ price: 'price_studio' }))

  it('accepts a valid signature over the raw body and applies the event', async () => {
    const res = await deliver(event())
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { received: true } })
    expect(await planOf()).toBe('studio')
  })

  it('works under /api/v1 as well', async () => {
    const body = JSON.stringify(event())
    const res = await t.request('POST', '/api/v1/billing/webhook', { body, headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, now()) } })
    expect(res.status).toBe(200)
  })

  it.each([
    ['a missing header', () => ({ signature: '' })],
    ['a wrong secret', () => ({ signature: stripeSignature(JSON.stringify(event(), null, 2), now(), 'whsec_other') })],
    ['a body changed after signing', () => ({ body: JSON.stringify(event()), signature: stripeSignature(JSON.stringify(event(), null, 2), now()) })],
    ['no v1 entry', () => ({ signature: `t=${now()}` })],
  ])('refuses %s with 400', async (_, o) => {
    const res = await deliver(event(), o())
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('invalid Stripe signature')
    expect(await planOf()).toBe('free')
  })

  it('refuses a replay whose signed timestamp is older than 5 minutes, accepts one within', async () => {
    const old = await deliver(event(), { t: now() - 301 })
    expect(old.status).toBe(400)
    expect(old.body.error).toBe('Stripe signature timestamp is outside the tolerance')
    expect(await planOf()).toBe('free')
    expect((await deliver(event(), { t: now() - 299 })).status).toBe(200)
  })

  it('accepts any matching v1 among several (secret rotation)', async () => {
    const body = JSON.stringify(event(), null, 2)
    const good = stripeSignature(body, now()).split(',')[1]
    const res = await deliver(event(), { body, signature: `t=${now()},v1=${'0'.repeat(64)},${good}` })
    expect(res.status).toBe(200)
  })
})

describe('POST /api/billing/webhook events', () => {
  it('applies plan up, down and cancelled, each event once', async () => {
    const up = stripeEvent('evt_1', 'customer.subscription.created', subscription({ price: 'price_pro' }))
    expect((await deliver(up)).body.data).toEqual({ received: true })
    expect(await planOf()).toBe('pro')

    expect((await deliver(stripeEvent('evt_2', 'customer.subscription.updated', subscription({ price: 'price_studio' })))).status).toBe(200)
    expect(await planOf()).toBe('studio')

    // Re-delivery of the first event changes nothing.
    expect((await deliver(up)).body.data).toEqual({ received: true, duplicate: true })
    expect(await planOf()).toBe('studio')

    await deliver(stripeEvent('evt_3', 'customer.subscription.updated', subscription({ price: 'price_pro' })))
    expect(await planOf()).toBe('pro')

    await deliver(stripeEvent('evt_4', 'customer.subscription.deleted', subscription({ price: 'price_pro', status: 'canceled' })))
    expect(await planOf()).toBe('free')
    const sub = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(sub).toMatchObject({ plan: 'free', status: 'canceled' })
    expect((await t.deps.db.read((q) => rowsOf(q, sql`SELECT cast(count(*) AS int) AS n FROM billing_events`)))[0]).toEqual({ n: 4 })
  })

  it.each(['unpaid', 'incomplete_expired'])('drops to free when the subscription becomes %s', async (status) => {
    await deliver(stripeEvent('evt_a', 'customer.subscription.created', subscription({ price: 'price_studio' })))
    await deliver(stripeEvent('evt_b', 'customer.subscription.updated', subscription({ price: 'price_studio', status })))
    expect(await planOf()).toBe('free')
  })

  it('applies checkout.session.completed by reading the subscription from Stripe', async () => {
    const other = await createUser(t)
    fake.on('GET /v1/subscriptions/sub_7', () => subscription({ id: 'sub_7', customer: 'cus_7', price: 'price_studio' }))
    const res = await deliver(stripeEvent('evt_c', 'checkout.session.completed', { id: 'cs_7', mode: 'subscription', subscription: 'sub_7', customer: 'cus_7', client_reference_id: other.account.id }))
    expect(res.status).toBe(200)
    const acc = (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, other.account.id))))[0]!
    expect(acc).toMatchObject({ plan: 'studio', stripeCustomerId: 'cus_7', stripeSubscriptionId: 'sub_7' })
    expect(fake.calls[0]!.headers.get('stripe-version')).toBe('2024-06-20')
  })

  it('ignores the end of an old subscription after the customer subscribed again', async () => {
    await deliver(stripeEvent('evt_n', 'customer.subscription.created', subscription({ id: 'sub_new', price: 'price_pro' })))
    await deliver(stripeEvent('evt_o', 'customer.subscription.deleted', subscription({ id: 'sub_old', status: 'canceled' })))
    expect(await planOf()).toBe('pro')
  })

  it('acknowledges events it does not handle, and events for unknown customers', async () => {
    expect((await deliver(stripeEvent('evt_x', 'invoice.paid', { id: 'in_1' }))).status).toBe(200)
    expect((await deliver(stripeEvent('evt_y', 'customer.subscription.updated', subscription({ customer: 'cus_unknown', price: 'price_studio' })))).status).toBe(200)
    expect(await planOf()).toBe('free')
  })

  it('refuses a signed body that is not an event', async () => {
    const res = await deliver(null, { body: 'not json' })
    expect(res.status).toBe(400)
  })
})
