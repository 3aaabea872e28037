import type { AppDeps } from '../../app-deps'
import { DAY } from '../../lib/clock'
import type { SteamReviewRow as Review } from './steam.repository'
import { steam, steamAppOf } from './steam.service'

export const REVIEWS_PAGE_SIZE = 50
/** Steam refunds a game played under two hours: a negative review written before that is a refund risk. */
export const REFUND_PLAYTIME_MINUTES = 120
const SIGNALS_LISTED = 50
/** "Refund" in the languages Steam reviews are most often written in (matched case-insensitively). */
const REFUND_WORDS = ['refund', 'rembours', 'reembols', 'rückerstatt', 'rimbors', 'zwrot', 'возврат', '退款', '返金', '환불']

type Deps = Pick<AppDeps, 'db'>

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

/** A page of 50 stored reviews, newest first, optionally only the positive or the negative ones. */
export async function listReviews(deps: Deps, projectId: string, q: { page?: number; filter?: 'all' | 'positive' | 'negative' }) {
  const app = await steamAppOf(deps, projectId)
  const page = q.page ?? 1
  const votedUp = q.filter && q.filter !== 'all' ? q.filter === 'positive' : undefined
  const { reviews, total } = await steam(deps).reviewsPage(projectId, app.appId, votedUp, REVIEWS_PAGE_SIZE, (page - 1) * REVIEWS_PAGE_SIZE)
  return { reviews: reviews.map(reviewView), page, per_page: REVIEWS_PAGE_SIZE, total }
}

/** Reviews posted per UTC day over the last `days` days (days without reviews included, oldest first). */
export async function reviewHistory(deps: Deps, projectId: string, now: Date, days = 30) {
  const app = await steamAppOf(deps, projectId)
  const start = Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY
  const rows = await steam(deps).perDay(projectId, app.appId, new Date(start))
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
export async function dashboard(deps: Deps, projectId: string, now: Date, days = 30) {
  const app = await steamAppOf(deps, projectId)
  const [stored, history] = await Promise.all([steam(deps).storedCounts(projectId, app.appId), reviewHistory(deps, projectId, now, days)])
  const share = (positive: number, total: number) => (total ? Math.round((positive / total) * 1000) / 1000 : null)
  return {
    app_id: app.appId,
    review_score: app.reviewScore,
    review_score_desc: app.reviewScoreDesc,
    total_positive: app.totalPositive,
    total_negative: app.totalNegative,
    total_reviews: app.totalReviews,
    positive_share: app.totalReviews ? share(app.totalPositive ?? 0, app.totalReviews) : share(stored.positive, stored.n),
    stored_reviews: stored.n,
    last_sync_at: iso(app.lastSyncAt),
    over_time: history.map((d) => ({ ...d, positive_share: share(d.positive, d.total) })),
  }
}

/** Negative reviews written with under two hours played, and reviews that mention a refund; newest first, 50 of each. */
export async function refundSignals(deps: Deps, projectId: string) {
  const app = await steamAppOf(deps, projectId)
  // LIKE ignores case for ASCII letters only: other scripts are matched as written and capitalised.
  const words = [...new Set(REFUND_WORDS.flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1)]))]
  const listed = (l: { total: number; reviews: Review[] }) => ({ total: l.total, reviews: l.reviews.map(reviewView) })
  const [low, mentions] = await Promise.all([
    steam(deps).negativeUnderPlaytime(projectId, app.appId, REFUND_PLAYTIME_MINUTES, SIGNALS_LISTED),
    steam(deps).mentioning(projectId, app.appId, words, SIGNALS_LISTED),
  ])
  return { playtime_threshold_minutes: REFUND_PLAYTIME_MINUTES, low_playtime_negative: listed(low), refund_mentions: listed(mentions) }
}

/** The last import's outcome and the totals since Steam was connected. */
export async function syncStats(deps: Deps, projectId: string) {
  const app = await steamAppOf(deps, projectId)
  const stored = await steam(deps).storedCounts(projectId, app.appId)
  return {
    sync_enabled: app.syncEnabled,
    last_sync_at: iso(app.lastSyncAt),
    fetched: app.lastSyncFetched,
    new: app.lastSyncNew,
    last_error: app.lastSyncError,
    errors: app.errorCount,
    syncs: app.syncCount,
    stored_reviews: stored.n,
  }
}
