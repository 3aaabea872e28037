import { and, count, desc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm'
import type { Query, Seam } from '../../db/client'
import { containsText } from '../../db/portable-sql'
import { steamApps, steamReviews } from './steam.table'

export type SteamApp = typeof steamApps.$inferSelect
export type SteamReviewRow = typeof steamReviews.$inferSelect
/** What an import writes on the app: Steam's summary and the outcome of the sync. */
type SyncOutcome = Partial<
  Pick<
    SteamApp,
    'reviewScore' | 'reviewScoreDesc' | 'totalPositive' | 'totalNegative' | 'totalReviews' | 'lastSyncAt' | 'lastSyncFetched' | 'lastSyncNew' | 'lastSyncError' | 'updatedAt'
  >
>

const ofApp = (projectId: string, appId: number) => and(eq(steamReviews.projectId, projectId), eq(steamReviews.appId, appId))
const newestFirst = [desc(steamReviews.postedAt), desc(steamReviews.seq)] as const

/** Every read and write of steam_apps and steam_reviews, as async functions over the database seam. */
export function createSteamRepository({ db }: { db: Seam }) {
  /** Up to `limit` reviews matching `where` (a condition, or one built for the engine) after the first `offset`, newest first, and how many match in all. */
  const listed = async (where: SQL | undefined | ((q: Query) => SQL | undefined), limit: number, offset = 0) => {
    const on = (q: Query) => (typeof where === 'function' ? where(q) : where)
    const [reviews, [total]] = await Promise.all([
      db.read((q) => q.select().from(steamReviews).where(on(q)).orderBy(...newestFirst).limit(limit).offset(offset)),
      db.read((q) => q.select({ n: count() }).from(steamReviews).where(on(q))),
    ])
    return { reviews, total: total!.n }
  }
  return {
    /** The project's Steam app, or undefined. */
    appOf: async (projectId: string): Promise<SteamApp | undefined> => {
      const [row] = await db.read((q) => q.select().from(steamApps).where(eq(steamApps.projectId, projectId)).limit(1))
      return row
    },

    /** One app by its row id, or undefined. */
    appById: async (id: string): Promise<SteamApp | undefined> => {
      const [row] = await db.read((q) => q.select().from(steamApps).where(eq(steamApps.id, id)).limit(1))
      return row
    },

    /** Row ids of the apps whose hourly import is on. */
    syncingAppIds: async (): Promise<string[]> => (await db.read((q) => q.select({ id: steamApps.id }).from(steamApps).where(eq(steamApps.syncEnabled, true)))).map((a) => a.id),

    insertApp: (row: typeof steamApps.$inferInsert) => db.write((q) => q.insert(steamApps).values(row)),

    setSyncEnabled: (id: string, syncEnabled: boolean, now: Date) => db.write((q) => q.update(steamApps).set({ syncEnabled, updatedAt: now }).where(eq(steamApps.id, id))),

    removeApp: (id: string) => db.write((q) => q.delete(steamApps).where(eq(steamApps.id, id))),

    /** Stores the reviews not stored yet (by recommendation id); how many were new. */
    insertReviews: async (rows: (typeof steamReviews.$inferInsert)[]): Promise<number> => {
      if (rows.length === 0) return 0
      const added = await db.write((q) => q.insert(steamReviews).values(rows).onConflictDoNothing().returning({ seq: steamReviews.seq }))
      return added.length
    },

    /** Records an import's outcome on the app, counting it as a sync or as an error. */
    recordSync: (id: string, outcome: SyncOutcome, failed: boolean) =>
      db.write((q) =>
        q
          .update(steamApps)
          .set({ ...outcome, ...(failed ? { errorCount: sql`${steamApps.errorCount} + 1` } : { syncCount: sql`${steamApps.syncCount} + 1` }) })
          .where(eq(steamApps.id, id)),
      ),

    /** A page of the app's reviews, newest first, optionally only positive or negative ones, and how many match. */
    reviewsPage: (projectId: string, appId: number, votedUp: boolean | undefined, limit: number, offset: number) =>
      listed(and(ofApp(projectId, appId), votedUp === undefined ? undefined : eq(steamReviews.votedUp, votedUp)), limit, offset),

    /** Reviews and positive ones per UTC day (`YYYY-MM-DD`) posted since `start`; days without reviews are missing. */
    perDay: async (projectId: string, appId: number, start: Date) => {
      // Whole UTC days since the epoch group alike on both engines (no strftime on PostgreSQL); the date text is made here.
      const dayNumber = sql<number>`${steamReviews.postedAt} / 86400000`.mapWith(Number)
      const rows = await db.read((q) =>
        q
          .select({ dayNumber, total: count(), positive: sql<number>`sum(${steamReviews.votedUp})`.mapWith(Number) })
          .from(steamReviews)
          .where(and(ofApp(projectId, appId), gte(steamReviews.postedAt, start)))
          .groupBy(dayNumber),
      )
      return rows.map(({ dayNumber, total, positive }) => ({ day: new Date(dayNumber * 86_400_000).toISOString().slice(0, 10), total, positive }))
    },

    /** How many of the app's reviews are stored, and how many of them are positive. */
    storedCounts: async (projectId: string, appId: number): Promise<{ n: number; positive: number }> => {
      const [row] = await db.read((q) =>
        q.select({ n: count(), positive: sql<number>`coalesce(sum(${steamReviews.votedUp}), 0)` }).from(steamReviews).where(ofApp(projectId, appId)),
      )
      return { n: row!.n, positive: Number(row!.positive) }
    },

    /** Negative reviews written with under `minutes` played: up to `limit`, newest first, and the total. */
    negativeUnderPlaytime: (projectId: string, appId: number, minutes: number, limit: number) =>
      listed(and(ofApp(projectId, appId), eq(steamReviews.votedUp, false), lt(steamReviews.playtimeAtReview, minutes)), limit),

    /** Reviews containing any of `words` (ignoring case: ASCII letters on SQLite, all on PostgreSQL): up to `limit`, newest first, and the total. */
    mentioning: (projectId: string, appId: number, words: string[], limit: number) =>
      listed((q) => and(ofApp(projectId, appId), or(...words.map((w) => containsText(q, steamReviews.review, w)))), limit),
  }
}
