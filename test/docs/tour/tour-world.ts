import { eq } from 'drizzle-orm'
import { accounts } from '../../../src/modules/auth/accounts.table'
import { mailOutbox } from '../../../src/mail/mail.table'
import { startFakeStripe, subscription } from '../../billing/fake-stripe'
import { WEBHOOK_SECRET } from '../../billing/billing-helpers'
import { fakeDiscord, fakeGithub, fakeLinear, fakePlay, fakeSlack, fakeSteam, serviceAccountKey } from '../../browser/integrations-fakes'
import { createProject, createUser } from '../../helpers/fixtures'
import { createTestApp } from '../../helpers/test-app'
import { startReceiver } from '../../webhooks/receiver'

/**
 * The app the tour drives (in-process, served on 127.0.0.1 for Prism to proxy to) with a fake of every
 * outside service it calls, a studio-plan owner with a project, and a paying account on the fake Stripe.
 */
export async function createTourWorld() {
  const fakes = { stripe: startStripe(), slack: fakeSlack(), discord: fakeDiscord(), linear: fakeLinear(), play: fakePlay(), steam: fakeSteam(), github: fakeGithub(), hooks: startReceiver() }
  const t = createTestApp({
    env: {
      GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true',
      GLITCHBOX_RATE_LIMIT_GLOBAL: '0',
      GLITCHBOX_RATE_LIMIT_PUBLIC: '0',
      GLITCHBOX_RATE_LIMIT_PERF: '0',
      GLITCHBOX_RATE_LIMIT_AUTH: '0',
      GLITCHBOX_STRIPE_SECRET_KEY: 'sk_test_123',
      GLITCHBOX_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      GLITCHBOX_STRIPE_PRICE_PRO: 'price_pro',
      GLITCHBOX_STRIPE_PRICE_STUDIO: 'price_studio',
      GLITCHBOX_PROVIDER_URL_STRIPE: fakes.stripe.url,
      GLITCHBOX_PROVIDER_URL_LINEAR: fakes.linear.url,
      GLITCHBOX_PROVIDER_URL_STEAM: fakes.steam.url,
      GLITCHBOX_PROVIDER_URL_GOOGLE_OAUTH: fakes.play.url,
      GLITCHBOX_PROVIDER_URL_GOOGLE_PLAY: fakes.play.url,
      GLITCHBOX_PROVIDER_URL_DISCORD: fakes.discord.url,
      GLITCHBOX_PROVIDER_URL_SLACK_WEBHOOKS: fakes.slack.url,
      GLITCHBOX_PROVIDER_URL_GITHUB: fakes.github.url,
    },
  })
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => t.app.handle(req) })
  const owner = await createUser(t, { plan: 'studio', name: 'Olivia Owner' })
  const project = await createProject(t, owner, { name: 'Comet Drift' })
  // A customer of the fake Stripe, subscribed to Studio.
  const payer = await createUser(t, { plan: 'studio', name: 'Pat Payer' })
  await t.deps.db.write((q) => q.update(accounts).set({ stripeCustomerId: 'cus_1', stripeSubscriptionId: 'sub_1' }).where(eq(accounts.id, payer.account.id)))
  const mate = await createUser(t, { name: 'Mo Mate' })
  return {
    t,
    fakes,
    serverUrl: `http://127.0.0.1:${server.port}`,
    owner,
    payer,
    mate,
    project,
    serviceAccount: await serviceAccountKey(),
    /** Path parameters and values steps pass on (`keep`); seeded with what exists before the tour. */
    v: { slug: project.slug, apiKey: project.apiKey, projectId: project.id, mateId: mate.user.id, mateEmail: mate.user.email } as Record<string, string>,
    /** The newest mail to `to` in the outbox (no SMTP in tests). */
    async mailTo(to: string): Promise<string> {
      const rows = await t.deps.db.read((q) => q.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(mailOutbox.id))
      if (!rows.length) throw new Error(`no mail to ${to}`)
      return rows.at(-1)!.text
    },
    async close() {
      server.stop(true)
      for (const f of Object.values(fakes)) f.stop()
      t.close()
    },
  }
}

export type TourWorld = Awaited<ReturnType<typeof createTourWorld>>

/** A fake Stripe answering every call the billing routes make for customer cus_1 with subscription sub_1. */
function startStripe() {
  const periodEnd = 1_800_000_000
  return startFakeStripe({
    'POST /v1/customers': () => ({ id: 'cus_1', object: 'customer' }),
    'GET /v1/customers/cus_1': () => ({ id: 'cus_1', invoice_settings: { default_payment_method: 'pm_1' } }),
    'POST /v1/customers/cus_1': () => ({ id: 'cus_1' }),
    'POST /v1/checkout/sessions': () => ({ id: 'cs_1', url: 'https://checkout.stripe.test/cs_1' }),
    'GET /v1/checkout/sessions/*': () => ({ id: 'cs_1', status: 'complete', payment_status: 'paid', client_reference_id: 'unknown', subscription: null }),
    'POST /v1/billing_portal/sessions': () => ({ url: 'https://billing.stripe.test/p/1' }),
    'GET /v1/invoices': () => ({
      data: [{ id: 'in_1', number: 'A-1', amount_due: 4900, amount_paid: 4900, currency: 'usd', status: 'paid', created: 1_767_000_000, hosted_invoice_url: 'https://i.test/1', invoice_pdf: 'https://i.test/1.pdf', lines: {} }],
    }),
    'GET /v1/customers/cus_1/payment_methods': () => ({ data: [{ id: 'pm_1', customer: 'cus_1', card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2030 } }] }),
    'POST /v1/setup_intents': () => ({ id: 'seti_1', client_secret: 'seti_1_secret' }),
    'POST /v1/payment_methods/*/attach': () => ({ id: 'pm_9', customer: 'cus_1' }),
    'GET /v1/payment_methods/*': (c: { path: string }) => ({ id: c.path.split('/').at(-1), customer: 'cus_1' }),
    'POST /v1/payment_methods/*/detach': () => ({ id: 'pm_9', customer: null }),
    'GET /v1/subscriptions/sub_1': () => subscription({ price: 'price_studio', periodEnd }),
    'POST /v1/subscriptions/sub_1': () => subscription({ price: 'price_studio', periodEnd }),
  })
}
