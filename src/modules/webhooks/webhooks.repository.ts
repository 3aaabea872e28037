import { and, desc, eq, inArray, lte, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { containsExactly } from '../../db/portable-sql'
import { webhookAttempts, webhookDeliveries, webhooks } from './webhooks.table'
import { oncePerWrite } from '../../db/write-scope'

export type Webhook = typeof webhooks.$inferSelect
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect
type DeliveryOutcome = Pick<WebhookDelivery, 'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'nextAttemptAt' | 'updatedAt'>

/** `event_types` holds a canonical comma list; this matches one name in it (`needle` from `eventNeedle`). */
const takesEvent = (q: Query, needle: string | ReturnType<typeof sql.placeholder>) => containsExactly(q, sql`',' || ${webhooks.eventTypes} || ','`, needle)
const eventNeedle = (event: string) => `,${event},`

/** Every read and write of webhooks, their deliveries and attempts, as async functions over the database seam. */
export function createWebhooksRepository({ db }: { db: Seam }) {
  return {
    /** The project's webhooks, oldest first. */
    list: (projectId: string) => db.read((q) => q.select().from(webhooks).where(eq(webhooks.projectId, projectId)).orderBy(webhooks.createdAt, webhooks.id)),

    /** One webhook of the project, or undefined. */
    find: async (projectId: string, webhookId: string): Promise<Webhook | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select()
          .from(webhooks)
          .where(and(eq(webhooks.id, webhookId), eq(webhooks.projectId, projectId)))
          .limit(1),
      )
      return row
    },

    insert: (row: typeof webhooks.$inferInsert) => db.write((q) => q.insert(webhooks).values(row)),

    /** Deletes a webhook; the foreign keys take its deliveries and their attempts with it. */
    remove: (id: string) => db.write((q) => q.delete(webhooks).where(eq(webhooks.id, id))),

    /** The webhook's `limit` most recent deliveries, newest first. */
    recentDeliveries: (webhookId: string, limit: number) =>
      db.read((q) =>
        q
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.webhookId, webhookId))
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(limit),
      ),

    /** Every attempt of these deliveries, by delivery and attempt number. */
    attemptsOf: async (deliveryIds: string[]) =>
      deliveryIds.length
        ? db.read((q) => q.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds)).orderBy(webhookAttempts.deliveryId, webhookAttempts.attempt))
        : [],

    /** Ids of the project's webhooks that take `event` and existed at `at` (the fan-out's targets). */
    targets: async (projectId: string, event: string, at: Date): Promise<string[]> => {
      const rows = await db.read((q) =>
        q
          .select({ id: webhooks.id })
          .from(webhooks)
          .where(and(eq(webhooks.projectId, projectId), takesEvent(q, eventNeedle(event)), lte(webhooks.createdAt, at))),
      )
      return rows.map((r) => r.id)
    },

    /** Inserts deliveries; one already there (a fan-out run again) is left as it is. */
    insertDeliveries: async (rows: (typeof webhookDeliveries.$inferInsert)[]) => {
      if (rows.length) await db.write((q) => q.insert(webhookDeliveries).values(rows).onConflictDoNothing())
    },

    /** A delivery with its webhook, or undefined when either is gone. */
    deliveryWithWebhook: async (deliveryId: string): Promise<{ d: WebhookDelivery; w: Webhook } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ d: webhookDeliveries, w: webhooks })
          .from(webhookDeliveries)
          .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
          .where(eq(webhookDeliveries.id, deliveryId))
          .limit(1),
      )
      return row
    },

    /** Records one attempt and its outcome on the delivery, if the delivery is still pending; one write. */
    recordAttempt: (attempt: typeof webhookAttempts.$inferInsert, outcome: DeliveryOutcome) =>
      db.write(async (q) => {
        await q.insert(webhookAttempts).values(attempt)
        await q
          .update(webhookDeliveries)
          .set(outcome)
          .where(and(eq(webhookDeliveries.id, attempt.deliveryId), eq(webhookDeliveries.status, 'pending')))
      }),
  }
}

const prepareAnyTarget = (q: Query) =>
  q
    .select({ id: webhooks.id })
    .from(webhooks)
    .where(and(eq(webhooks.projectId, sql.placeholder('projectId')), takesEvent(q, sql.placeholder('needle'))))
    .limit(1)
    .prepare()
const anyTargetOf = preparedPerConnection(prepareAnyTarget)

/**
 * Whether any webhook of the project takes `event`. Prepared once per connection and asked once per
 * write (a bulk change's events share the answer): the event subscriber runs inside every report
 * write, and most projects have no webhook.
 */
export function anyWebhookTakes(db: Seam, projectId: string, event: string): Promise<boolean> {
  return oncePerWrite(db, `webhooks.any:${projectId}:${event}`, async () => (await db.read((q) => anyTargetOf(q).execute({ projectId, needle: eventNeedle(event) }))).length > 0)
}
