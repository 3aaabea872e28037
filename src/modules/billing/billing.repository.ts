import { eq } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { billingEvents, billingSubscriptions } from './billing.table'

type StoredSubscription = typeof billingSubscriptions.$inferSelect
type SubscriptionFields = Omit<typeof billingSubscriptions.$inferInsert, 'accountId'>

/** Every read and write of billing_subscriptions and billing_events, as async functions over the database seam. */
export function createBillingRepository({ db }: { db: Seam }) {
  return {
    /** The account's stored subscription, or undefined. */
    subscriptionOf: async (accountId: string): Promise<StoredSubscription | undefined> => {
      const [row] = await db.read((q) => q.select().from(billingSubscriptions).where(eq(billingSubscriptions.accountId, accountId)).limit(1))
      return row
    },

    /** Stores the account's subscription, replacing what was stored. */
    saveSubscription: (accountId: string, row: SubscriptionFields) =>
      db.write((q) => q.insert(billingSubscriptions).values({ accountId, ...row }).onConflictDoUpdate({ target: billingSubscriptions.accountId, set: row })),

    /** Whether the Stripe event was applied already. */
    eventSeen: async (id: string): Promise<boolean> => (await db.read((q) => q.select({ id: billingEvents.id }).from(billingEvents).where(eq(billingEvents.id, id)).limit(1))).length > 0,

    /** Records a Stripe event as applied; false when it was recorded already. */
    recordEvent: async (id: string, type: string, now: Date): Promise<boolean> => {
      const fresh = await db.write((q) => q.insert(billingEvents).values({ id, type, createdAt: now }).onConflictDoNothing().returning({ id: billingEvents.id }))
      return fresh.length > 0
    },
  }
}
