import { and, desc, eq, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { chatChannelDeliveries, chatChannels } from './chat-channels.table'
import { oncePerWrite } from '../../db/write-scope'

export type Channel = typeof chatChannels.$inferSelect
type Delivery = typeof chatChannelDeliveries.$inferSelect
type ChannelChanges = Partial<Pick<typeof chatChannels.$inferInsert, 'webhookUrlEnc' | 'webhookUrlHint' | 'channelName' | 'eventTypes' | 'isActive' | 'updatedAt'>>
type DeliveryOutcome = Pick<Delivery, 'status' | 'attempts' | 'lastStatusCode' | 'lastError' | 'response' | 'updatedAt'>

const activeOf = (projectId: string | ReturnType<typeof sql.placeholder>) => and(eq(chatChannels.projectId, projectId), eq(chatChannels.isActive, true))

// Ties in time go by id, a UUIDv7 (time-ordered), so rows come in creation order on either engine (PostgreSQL has no rowid).
/** Every read and write of chat_channels and chat_channel_deliveries, as async functions over the database seam. */
export function createChatChannelsRepository({ db }: { db: Seam }) {
  return {
    /** The project's channels of one provider, oldest first. */
    list: (projectId: string, provider: Channel['provider']) =>
      db.read((q) =>
        q
          .select()
          .from(chatChannels)
          .where(and(eq(chatChannels.projectId, projectId), eq(chatChannels.provider, provider)))
          .orderBy(chatChannels.createdAt, chatChannels.id),
      ),

    /** One channel of the project and provider, or undefined. */
    find: async (projectId: string, provider: Channel['provider'], id: string): Promise<Channel | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select()
          .from(chatChannels)
          .where(and(eq(chatChannels.id, id), eq(chatChannels.projectId, projectId), eq(chatChannels.provider, provider)))
          .limit(1),
      )
      return row
    },

    insert: (row: typeof chatChannels.$inferInsert) => db.write((q) => q.insert(chatChannels).values(row)),

    update: (id: string, changes: ChannelChanges) => db.write((q) => q.update(chatChannels).set(changes).where(eq(chatChannels.id, id))),

    /** Deletes a channel; the foreign key takes its deliveries with it. */
    remove: (id: string) => db.write((q) => q.delete(chatChannels).where(eq(chatChannels.id, id))),

    /** The channel's `limit` most recent deliveries, newest first. */
    recentDeliveries: (channelId: string, limit: number) =>
      db.read((q) =>
        q
          .select()
          .from(chatChannelDeliveries)
          .where(eq(chatChannelDeliveries.channelId, channelId))
          .orderBy(desc(chatChannelDeliveries.createdAt), desc(chatChannelDeliveries.id))
          .limit(limit),
      ),

    /** Ids of the channel's deliveries still waiting to be posted. */
    pendingDeliveryIds: async (channelId: string): Promise<string[]> => {
      const rows = await db.read((q) =>
        q
          .select({ id: chatChannelDeliveries.id })
          .from(chatChannelDeliveries)
          .where(and(eq(chatChannelDeliveries.channelId, channelId), eq(chatChannelDeliveries.status, 'pending'))),
      )
      return rows.map((r) => r.id)
    },

    /** A delivery with its channel, or undefined when either is gone. */
    deliveryWithChannel: async (deliveryId: string): Promise<{ d: Delivery; c: Channel } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ d: chatChannelDeliveries, c: chatChannels })
          .from(chatChannelDeliveries)
          .innerJoin(chatChannels, eq(chatChannels.id, chatChannelDeliveries.channelId))
          .where(eq(chatChannelDeliveries.id, deliveryId))
          .limit(1),
      )
      return row
    },

    insertDelivery: (row: typeof chatChannelDeliveries.$inferInsert) => db.write((q) => q.insert(chatChannelDeliveries).values(row)),

    /** Records a post's outcome on its delivery. */
    recordDelivery: (deliveryId: string, outcome: DeliveryOutcome) =>
      db.write((q) => q.update(chatChannelDeliveries).set(outcome).where(eq(chatChannelDeliveries.id, deliveryId))),
  }
}

const prepareAnyActive = (q: Query) => q.select({ id: chatChannels.id }).from(chatChannels).where(activeOf(sql.placeholder('projectId'))).limit(1).prepare()
const anyActiveOf = preparedPerConnection(prepareAnyActive)

/**
 * The event subscriber's reads and writes, on the emitter's write `db` (a write inside it joins it).
 * `anyActive` is prepared once per connection: it runs on every report write, and most projects have
 * no chat channel.
 */
export const channelEventStatements = (db: Seam) => ({
  /** Whether the project has an active channel (asked once per write: a bulk change's events share it). */
  anyActive: (projectId: string): Promise<boolean> =>
    oncePerWrite(db, `chat-channels.any:${projectId}`, async () => (await db.read((q) => anyActiveOf(q).execute({ projectId }))).length > 0),
  /** The project's active channels. */
  activeChannels: (projectId: string): Promise<Channel[]> => db.read((q) => q.select().from(chatChannels).where(activeOf(projectId))),
  /** Stores rendered messages to post, in one insert. */
  insertDeliveries: (rows: (typeof chatChannelDeliveries.$inferInsert)[]) => db.write(async (q) => void (await q.insert(chatChannelDeliveries).values(rows))),
})
