import { and, count, desc, eq, gte, lt, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { DAY } from '../../lib/clock'
import { steamAppOf } from './steam.service'
import { steamReviews } from './steam.table'

export const REVIEWS_PAGE_SIZE = 50
/** Steam refunds a game played under two hours: a negative review written before that is a refund risk. */
export const REFUND_PLAYTIME_MINUTES = 120
const SIGNALS_LISTED = 50
/** "Refund" in the languages Steam reviews are most often written in (matched case-insensitively). */
const REFUND_WORDS = ['refund', 'rembours', 'reembols', 'rückerstatt', 'rimbors', 'zwrot', 'возврат', '退款', '返金', '환불']

type Review = typeof steamReviews.$inferSelect

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** A review as the API shows it (playtimes in minutes, as Steam gives them). */
export function reviewView(r: Review) {
  return {
    recommendation_id: r.recommendationId,
    author_steam_id: r.authorSteamId,
    language: r.language,
    review: r.review,
    voted_up: r.votedUp,
    votes_up: r.votesUp,
    votes_funny: r.votesFunny,
    playtime_at_review_minutes: r.playtimeAtReview,
    playtime_forever_minutes: r.playtimeForever,
    steam_purchase: r.steamPurchase,
    received_for_free: r.receivedForFree,
    written_during_early_access: r.writtenDuringEarlyAccess,
    posted_at: r.postedAt.toISOString(),
    edited_at: iso(r.editedAt),
  }
}

const ofApp = (projectId: string, appId: number) => and(eq(steamReviews.projectId, projectId), eq(steamReviews.appId, appId))
const newestFirst = [desc(steamReviews.postedAt), desc(steamReviews.seq)] as const

/** A page of 50 stored reviews, newest first, optionally only the positive or the negative ones. */
export function listReviews(db: DbOrTx, projectId: string, q: { page?: number; filter?: 'all' | 'positive' | 'negative' }) {
  const app = steamAppOf(db, projectId)
  const page = q.page ?? 1
  const where = and(ofApp(projectId, app.appId), q.filter && q.filter !== 'all' ? eq(steamReviews.votedUp, q.filter === 'positive') : undefined)
  const rows = db
    .select()
    .from(steamReviews)
    .where(where)
    .orderBy(...newestFirst)
    .limit(REVIEWS_PAGE_SIZE)
    .offset((page - 1) * REVIEWS_PAGE_SIZE)
    .all()
  const total = db.select({ n: count() }).from(steamReviews).where(where).get()!.n
  return { reviews: rows.map(reviewView), page, per_page: REVIEWS_PAGE_SIZE, total }
}

/** Reviews posted per UTC day over the last `days` days (days without reviews included, oldest first). */
export function reviewHistory(db: DbOrTx, projectId: string, now: Date, days = 30) {
  const app = steamAppOf(db, projectId)
  const start = Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY
  const day = sql<string>`strftime('%Y-%m-%d', ${steamReviews.postedAt} / 1000, 'unixepoch')`
  const rows = db
    .select({ day, total: count(), positive: sql<number>`sum(${steamReviews.votedUp})` })
    .from(steamReviews)
    .where(and(ofApp(projectId, app.appId), gte(steamReviews.postedAt, new Date(start))))
    .groupBy(day)
    .all()
  const byDay = new Map(rows.map((r) => [r.day, r]))
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * DAY).toISOString().slice(0, 10)
    const r = byDay.get(date)
    const total = r?.total ?? 0
    const positive = Number(r?.positive ?? 0)
    return { date, total, positive, negative: total - positive }
  })
}

/** Review score from Steam's summary and the positive share per day of the stored reviews. */
export function dashboard(db: DbOrTx, projectId: string, now: Date, days = 30) {
  const app = steamAppOf(db, projectId)
  const stored = db
    .select({ n: count(), positive: sql<number>`coalesce(sum(${steamReviews.votedUp}), 0)` })
    .from(steamReviews)
    .where(ofApp(projectId, app.appId))
    .get()!
  const share = (positive: number, total: number) => (total ? Math.round((positive / total) * 1000) / 1000 : null)
  return {
    app_id: app.appId,
    review_score: app.reviewScore,
    review_score_desc: app.reviewScoreDesc,
    total_positive: app.totalPositive,
    total_negative: app.totalNegative,
    total_reviews: app.totalReviews,
    positive_share: app.totalReviews ? share(app.totalPositive ?? 0, app.totalReviews) : share(Number(stored.positive), stored.n),
    stored_reviews: stored.n,
    last_sync_at: iso(app.lastSyncAt),
    over_time: reviewHistory(db, projectId, now, days).map((d) => ({ ...d, positive_share: share(d.positive, d.total) })),
  }
}

/** Negative reviews written with under two hours played, and reviews that mention a refund; newest first, 50 of each. */
export function refundSignals(db: DbOrTx, projectId: string) {
  const app = steamAppOf(db, projectId)
  const lowPlaytime = and(ofApp(projectId, app.appId), eq(steamReviews.votedUp, false), lt(steamReviews.playtimeAtReview, REFUND_PLAYTIME_MINUTES))
  // LIKE ignores case for ASCII letters only: other scripts are matched as written and capitalised.
  const words = [...new Set(REFUND_WORDS.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1)]))]
  const mentions = and(ofApp(projectId, app.appId), or(...words.map((w) => sql`${steamReviews.review} like ${`%${w}%`}`)))
  const list = (where: ReturnType<typeof and>) => db.select().from(steamReviews).where(where).orderBy(...newestFirst).limit(SIGNALS_LISTED).all().map(reviewView)
  const total = (where: ReturnType<typeof and>) => db.select({ n: count() }).from(steamReviews).where(where).get()!.n
  return {
    playtime_threshold_minutes: REFUND_PLAYTIME_MINUTES,
    low_playtime_negative: { total: total(lowPlaytime), reviews: list(lowPlaytime) },
    refund_mentions: { total: total(mentions), reviews: list(mentions) },
  }
}

/** The last import's outcome and the totals since Steam was connected. */
export function syncStats(db: DbOrTx, projectId: string) {
  const app = steamAppOf(db, projectId)
  const stored = db.select({ n: count() }).from(steamReviews).where(ofApp(projectId, app.appId)).get()!.n
  return {
    sync_enabled: app.syncEnabled,
    last_sync_at: iso(app.lastSyncAt),
    fetched: app.lastSyncFetched,
    new: app.lastSyncNew,
    last_error: app.lastSyncError,
    errors: app.errorCount,
    syncs: app.syncCount,
    stored_reviews: stored,
  }
}
