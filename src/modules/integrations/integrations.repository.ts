import { and, desc, eq, inArray, like, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { integrationAttempts, integrationDeliveries, integrationLinks, integrations } from './integrations.table'
import { oncePerWrite } from '../../db/write-scope'

export type Integration = typeof integrations.$inferSelect
export type IntegrationLink = typeof integrationLinks.$inferSelect
type NewDelivery = typeof integrationDeliveries.$inferInsert
type NewAttempt = typeof integrationAttempts.$inferInsert
type NewLink = typeof integrationLinks.$inferInsert
export type IntegrationChanges = Partial<Omit<typeof integrations.$inferInsert, 'id' | 'projectId' | 'provider' | 'createdBy' | 'createdAt'>>
type DeliveryOutcome = Pick<NewDelivery, 'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'response' | 'nextAttemptAt' | 'updatedAt'>

const activeIn = (projectId: string | ReturnType<typeof sql.placeholder>) => and(eq(integrations.projectId, projectId), eq(integrations.isActive, true))
const pendingOf = (integrationId: string) => and(eq(integrationDeliveries.integrationId, integrationId), eq(integrationDeliveries.status, 'pending'))
const linkKey = (integrationId: string, reportId: string) => and(eq(integrationLinks.integrationId, integrationId), eq(integrationLinks.reportId, reportId))

// Ties in time go by id, a UUIDv7 (time-ordered), so rows come in creation order on either engine (PostgreSQL has no rowid).
// Built once here and run either awaited (the repository) or synchronously (the event statements).
const activeConnections = (q: Query, projectId: string) => q.select().from(integrations).where(activeIn(projectId)).orderBy(integrations.createdAt, integrations.id)
const insertDeliveryQuery = (q: Query, row: NewDelivery) => q.insert(integrationDeliveries).values(row).onConflictDoNothing().returning({ id: integrationDeliveries.id })

/** Every read and write of integrations, their deliveries, attempts and links, as async functions over the database seam. */
export function createIntegrationsRepository({ db }: { db: Seam }) {
  return {
    /** The project's connections, oldest first, optionally of one provider. */
    list: (projectId: string, provider?: string) =>
      db.read((q) =>
        q
          .select()
          .from(integrations)
          .where(and(eq(integrations.projectId, projectId), provider ? eq(integrations.provider, provider) : undefined))
          .orderBy(integrations.createdAt, integrations.id),
      ),

    /** The project's active connections, oldest first. */
    active: (projectId: string) => db.read((q) => activeConnections(q, projectId)),

    /** One connection of the project (of `provider` when given), or undefined. */
    find: async (projectId: string, id: string, provider?: string): Promise<Integration | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select()
          .from(integrations)
          .where(and(eq(integrations.id, id), eq(integrations.projectId, projectId), provider ? eq(integrations.provider, provider) : undefined))
          .limit(1),
      )
      return row
    },

    /** One connection by id, or undefined. */
    byId: async (id: string): Promise<Integration | undefined> => (await db.read((q) => q.select().from(integrations).where(eq(integrations.id, id)).limit(1)))[0],

    /** The oldest active connection of the project to `provider`, or undefined. */
    firstActive: async (projectId: string, provider: string): Promise<Integration | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select()
          .from(integrations)
          .where(and(activeIn(projectId), eq(integrations.provider, provider)))
          .orderBy(integrations.createdAt)
          .limit(1),
      )
      return row
    },

    /** Id and project of every active connection subscribed to `event` (of these providers, when given). */
    subscribedTo: (event: string, providers?: string[]) =>
      db.read((q) =>
        q
          .select({ id: integrations.id, projectId: integrations.projectId })
          .from(integrations)
          .where(and(eq(integrations.isActive, true), like(integrations.eventTypes, `%"${event}"%`), providers ? inArray(integrations.provider, providers) : undefined)),
      ),

    insert: (row: typeof integrations.$inferInsert) => db.write((q) => q.insert(integrations).values(row)),

    update: (id: string, changes: IntegrationChanges) => db.write((q) => q.update(integrations).set(changes).where(eq(integrations.id, id))),

    /** Deletes a connection; the foreign keys take its deliveries with it and unhook its links. */
    remove: (id: string) => db.write((q) => q.delete(integrations).where(eq(integrations.id, id))),

    /** Inserts a delivery; false when one of that id exists already. */
    insertDelivery: async (row: NewDelivery): Promise<boolean> => (await db.write((q) => insertDeliveryQuery(q, row))).length > 0,

    /** Records a finished delivery with its single attempt (the test route's), in one write. */
    insertAnswered: (row: NewDelivery, attempt: Omit<NewAttempt, 'deliveryId'>) =>
      db.write(async (q) => {
        await q.insert(integrationDeliveries).values(row)
        await q.insert(integrationAttempts).values({ ...attempt, deliveryId: row.id })
      }),

    /** A delivery with its connection, or undefined when either is gone. */
    deliveryWithIntegration: async (deliveryId: string) => {
      const [row] = await db.read((q) =>
        q
          .select({ d: integrationDeliveries, i: integrations })
          .from(integrationDeliveries)
          .innerJoin(integrations, eq(integrations.id, integrationDeliveries.integrationId))
          .where(eq(integrationDeliveries.id, deliveryId))
          .limit(1),
      )
      return row
    },

    /** Records one attempt and its outcome on the delivery, in one write. */
    recordAttempt: (attempt: NewAttempt, outcome: DeliveryOutcome) =>
      db.write(async (q) => {
        await q.insert(integrationAttempts).values(attempt)
        await q.update(integrationDeliveries).set(outcome).where(eq(integrationDeliveries.id, attempt.deliveryId))
      }),

    /** Ids of the connection's deliveries still waiting to be sent. */
    pendingDeliveryIds: async (integrationId: string): Promise<string[]> =>
      (await db.read((q) => q.select({ id: integrationDeliveries.id }).from(integrationDeliveries).where(pendingOf(integrationId)))).map((r) => r.id),

    /** Marks the connection's pending deliveries as due at `now`. */
    duePending: (integrationId: string, now: Date) => db.write((q) => q.update(integrationDeliveries).set({ nextAttemptAt: now }).where(pendingOf(integrationId))),

    /** The connection's `limit` most recent deliveries, newest first. */
    recentDeliveries: (integrationId: string, limit: number) =>
      db.read((q) =>
        q
          .select()
          .from(integrationDeliveries)
          .where(eq(integrationDeliveries.integrationId, integrationId))
          .orderBy(desc(integrationDeliveries.createdAt), desc(integrationDeliveries.id))
          .limit(limit),
      ),

    /** Every attempt of these deliveries, by delivery and attempt number. */
    attemptsOf: async (deliveryIds: string[]) =>
      deliveryIds.length
        ? db.read((q) => q.select().from(integrationAttempts).where(inArray(integrationAttempts.deliveryId, deliveryIds)).orderBy(integrationAttempts.deliveryId, integrationAttempts.attempt))
        : [],

    /** The link the connection made for the report, or undefined. */
    linkOf: async (integrationId: string, reportId: string): Promise<IntegrationLink | undefined> =>
      (await db.read((q) => q.select().from(integrationLinks).where(linkKey(integrationId, reportId)).limit(1)))[0],

    /** The report's links to other tools, oldest first. */
    linksOf: (reportId: string) => db.read((q) => q.select().from(integrationLinks).where(eq(integrationLinks.reportId, reportId)).orderBy(integrationLinks.createdAt, integrationLinks.id)),

    /** Stores the link a connection made on a report, or updates the one it made before. */
    saveLink: (row: NewLink & { integrationId: string }) =>
      db.write((q) =>
        q
          .insert(integrationLinks)
          .values(row)
          .onConflictDoUpdate({
            target: [integrationLinks.reportId, integrationLinks.integrationId],
            set: { externalId: row.externalId, url: row.url, title: row.title, state: row.state, updatedAt: row.updatedAt },
          }),
      ),

    /**
     * Moves the tool links of the `fromIds` reports onto report `toId` (a merge): one link per
     * integration, so a link to an integration `toId` (or an earlier moved link) has already stays behind.
     */
    moveLinks: (fromIds: string[], toId: string) =>
      db.write(async (q) => {
        const rows = await q
          .select({ id: integrationLinks.id, reportId: integrationLinks.reportId, integrationId: integrationLinks.integrationId })
          .from(integrationLinks)
          .where(inArray(integrationLinks.reportId, [...fromIds, toId]))
          .orderBy(integrationLinks.createdAt, integrationLinks.id)
        const taken = new Set(rows.filter((r) => r.reportId === toId).map((r) => r.integrationId))
        const moving: string[] = []
        for (const r of rows) {
          if (r.reportId === toId || (r.integrationId !== null && taken.has(r.integrationId))) continue
          taken.add(r.integrationId)
          moving.push(r.id)
        }
        if (moving.length > 0) await q.update(integrationLinks).set({ reportId: toId }).where(inArray(integrationLinks.id, moving))
      }),
  }
}

const prepareAnyActive = (q: Query) => q.select({ id: integrations.id }).from(integrations).where(activeIn(sql.placeholder('projectId'))).limit(1).prepare()
const anyActiveOf = preparedPerConnection(prepareAnyActive)

/**
 * The reads of the event subscriber and the alert hook, on the emitter's write `db`. `anyActive` is
 * prepared once per connection: it runs on every report write, and most projects have no integration.
 */
export const integrationEventStatements = (db: Seam) => ({
  /** Whether the project has an active connection (asked once per write: a bulk change's events share it). */
  anyActive: (projectId: string): Promise<boolean> =>
    oncePerWrite(db, `integrations.any:${projectId}`, async () => (await db.read((q) => anyActiveOf(q).execute({ projectId }))).length > 0),
  /** Whether the connection delivered for the report before or linked it (a report filed by hand has only the link). */
  workedOn: (integrationId: string, reportId: string): Promise<boolean> =>
    db.read(
      async (q) =>
        (await q.select({ id: integrationDeliveries.id }).from(integrationDeliveries).where(and(eq(integrationDeliveries.reportId, reportId), eq(integrationDeliveries.integrationId, integrationId))).limit(1)).length > 0 ||
        (await q.select({ id: integrationLinks.id }).from(integrationLinks).where(linkKey(integrationId, reportId)).limit(1)).length > 0,
    ),
})
