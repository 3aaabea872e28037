import { hmacSha256Hex } from '../../src/lib/ids'
import { createTestApp } from '../helpers/test-app'
import type { FakeStripe } from './fake-stripe'

export const WEBHOOK_SECRET = 'whsec_test_secret'

/** A test app whose Stripe settings point at `fake`. */
export function billingApp(fake: FakeStripe) {
  return createTestApp({
    env: {
      GLITCHBOX_STRIPE_SECRET_KEY: 'sk_test_123',
      GLITCHBOX_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GLITCHBOX_STRIPE_PRICE_PRO: 'price_pro',
      GLITCHBOX_STRIPE_PRICE_STUDIO: 'price_studio',
      GLITCHBOX_PROVIDER_URL_STRIPE: fake.url,
    },
  })
}

/** A `Stripe-Signature` header for `body` signed at unix time `t`. */
export const stripeSignature = (body: string, t: number, secret = WEBHOOK_SECRET) => `t=${t},v1=${hmacSha256Hex(secret, `${t}.${body}`)}`

/** A Stripe event envelope. */
export const stripeEvent = (id: string, type: string, object: unknown) => ({ id, object: 'event', type, data: { object } })
