import { and, count, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { newId } from '../../lib/ids'
import type { FetchedReview } from './providers/store'
import { storeReviews } from './store-reviews.table'

export type StoreReview = typeof storeReviews.$inferSelect
type ReplyFields = Pick<StoreReview, 'replyBody' | 'repliedAt' | 'replyExternalId' | 'replyState' | 'updatedAt'>

/** The store reviews of one project and store. */
const ofStore = (projectId: string, provider: string) => and(eq(storeReviews.projectId, projectId), eq(storeReviews.provider, provider))

// Ties in time go by id, a UUIDv7 (time-ordered), so rows come in creation order on either engine (PostgreSQL has no rowid).
/** Every read and write of store_reviews, as async functions over the database seam. */
export function createStoreReviewsRepository({ db }: { db: Seam }) {
  return {
    /** How many of these store review ids the project has stored for the store. */
    countKnown: async (projectId: string, provider: string, storeReviewIds: string[]): Promise<number> => {
      const [row] = await db.read((q) => q.select({ n: count() }).from(storeReviews).where(and(ofStore(projectId, provider), inArray(storeReviews.storeReviewId, storeReviewIds))))
      return row?.n ?? 0
    },

    /**
     * Stores a fetched page of reviews in one write: new ones inserted, known ones refreshed (edits,
     * replies; a reply the store does not list is kept); returns how many were new.
     */
    saveFetched: (c: { projectId: string; integrationId: string; provider: string }, fetched: FetchedReview[], now: Date) =>
      db.write(async (q) => {
        let added = 0
        for (const r of fetched) {
          const values = {
            author: r.author,
            rating: r.rating,
            title: r.title,
            body: r.body,
            language: r.language,
            appVersion: r.appVersion,
            device: r.device,
            territory: r.territory,
            reviewedAt: r.reviewedAt,
            ...(r.reply && { replyBody: r.reply.body, repliedAt: r.reply.at, replyExternalId: r.reply.externalId, replyState: r.reply.state }),
          }
          const inserted = await q
            .insert(storeReviews)
            .values({ id: newId(), projectId: c.projectId, integrationId: c.integrationId, provider: c.provider, storeReviewId: r.storeReviewId, ...values, createdAt: now, updatedAt: now })
            .onConflictDoNothing()
            .returning({ id: storeReviews.id })
          if (inserted.length) added++
          else
            await q
              .update(storeReviews)
              .set({ ...values, integrationId: sql`coalesce(${storeReviews.integrationId}, ${c.integrationId})`, updatedAt: now })
              .where(and(ofStore(c.projectId, c.provider), eq(storeReviews.storeReviewId, r.storeReviewId)))
        }
        return added
      }),

    /** The store's one- and two-star reviews of the project not filed yet, oldest first. */
    unfiledLowStar: (projectId: string, provider: string) =>
      db.read((q) =>
        q
          .select()
          .from(storeReviews)
          .where(and(ofStore(projectId, provider), lte(storeReviews.rating, 2), isNull(storeReviews.filedAt)))
          .orderBy(storeReviews.reviewedAt, storeReviews.id),
      ),

    /** Marks a review as filed unless it was already; false when another filing claimed it first. */
    claimFiling: async (id: string, now: Date): Promise<boolean> =>
      (
        await db.write((q) =>
          q
            .update(storeReviews)
            .set({ filedAt: now })
            .where(and(eq(storeReviews.id, id), isNull(storeReviews.filedAt)))
            .returning({ id: storeReviews.id }),
        )
      ).length > 0,

    /** Records the report filed for a review. */
    setReport: (id: string, reportId: string, now: Date) => db.write((q) => q.update(storeReviews).set({ reportId, updatedAt: now }).where(eq(storeReviews.id, id))),

    /** A page of the project's reviews, newest first, optionally of one store and at most `maxRating` stars. */
    page: (projectId: string, f: { provider?: string; maxRating?: number }, limit: number, offset: number) =>
      db.read((q) =>
        q
          .select()
          .from(storeReviews)
          .where(and(eq(storeReviews.projectId, projectId), f.provider ? eq(storeReviews.provider, f.provider) : undefined, f.maxRating ? lte(storeReviews.rating, f.maxRating) : undefined))
          .orderBy(desc(storeReviews.reviewedAt), desc(storeReviews.id))
          .limit(limit)
          .offset(offset),
      ),

    /** One review of the project, or undefined. */
    find: async (projectId: string, id: string): Promise<StoreReview | undefined> =>
      (await db.read((q) => q.select().from(storeReviews).where(and(eq(storeReviews.id, id), eq(storeReviews.projectId, projectId))).limit(1)))[0],

    /** Records the public reply posted to a review. */
    saveReply: (id: string, reply: ReplyFields) => db.write((q) => q.update(storeReviews).set(reply).where(eq(storeReviews.id, id))),
  }
}
