import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/config'
import { formEncode, stripeClient } from '../../src/modules/billing/stripe.client'
import { startFakeStripe, type FakeStripe } from './fake-stripe'

describe('formEncode', () => {
  it("encodes nested objects and arrays the way Stripe reads them, escaping values and leaving out nulls", () => {
    const body = formEncode({
      mode: 'subscription',
      line_items: [{ price: 'price_1', quantity: 1 }],
      metadata: { account_id: 'a&b=c', note: 'two words' },
      expand: ['subscription', 'customer'],
      cancel_at_period_end: false,
      skipped: undefined,
      also_skipped: null,
    })
    expect(body).toBe(
      'mode=subscription&line_items%5B0%5D%5Bprice%5D=price_1&line_items%5B0%5D%5Bquantity%5D=1&metadata%5Baccount_id%5D=a%26b%3Dc&metadata%5Bnote%5D=two%20words&expand%5B0%5D=subscription&expand%5B1%5D=customer&cancel_at_period_end=false',
    )
    expect(Object.fromEntries(new URLSearchParams(body))).toMatchObject({ 'metadata[account_id]': 'a&b=c', 'expand[1]': 'customer' })
  })
})

describe('stripeClient', () => {
  let fake: FakeStripe
  afterEach(() => fake.stop())
  const client = (url: string) =>
    stripeClient(loadConfig({ GLITCHBOX_DATA_DIR: '/tmp/unused', GLITCHBOX_STRIPE_SECRET_KEY: 'sk_test_9', GLITCHBOX_PROVIDER_URL_STRIPE: url }, {}, '1.2.3'))!

  it('is null without a secret key', () => {
    fake = startFakeStripe()
    expect(stripeClient(loadConfig({ GLITCHBOX_DATA_DIR: '/tmp/unused' }))).toBeNull()
  })

  it('sends GET parameters as the query string with the pinned headers', async () => {
    fake = startFakeStripe({ 'GET /v1/invoices': () => ({ data: [] }) })
    expect(await client(fake.url).request('GET', 'invoices', { customer: 'cus_1', limit: 3 })).toEqual({ data: [] })
    const [call] = fake.calls
    expect(call!.query).toBe('customer=cus_1&limit=3')
    expect(call!.body).toBe('')
    expect(call!.headers.get('authorization')).toBe('Bearer sk_test_9')
    expect(call!.headers.get('stripe-version')).toBe('2024-06-20')
    expect(call!.headers.get('user-agent')).toBe('Glitchbox/1.2.3')
  })

  it('turns an answer without a Stripe error body into 502 naming the status, and an unreachable Stripe into 502', async () => {
    fake = startFakeStripe({ 'GET /v1/invoices': () => ({ status: 500, body: 'oops' }) })
    await expect(client(fake.url).request('GET', 'invoices')).rejects.toMatchObject({ status: 502, message: 'Stripe: HTTP 500' })
    const url = fake.url
    fake.stop()
    await expect(client(url).request('GET', 'invoices')).rejects.toMatchObject({ status: 502, message: 'Stripe could not be reached' })
  })
})
