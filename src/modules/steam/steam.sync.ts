import type { AppDeps } from '../../app-deps'
import { fetchReviewPage, type SteamReview, SteamError, type SteamSummary } from './steam.client'
import { createSteamRepository, type SteamApp } from './steam.repository'

/** A first import of a large game stops after this many pages (100 reviews each); later syncs only read what is new. */
export const MAX_PAGES_PER_SYNC = 50

const row = (projectId: string, appId: number, r: SteamReview, now: Date) => ({
  projectId,
  appId,
  recommendationId: String(r.recommendationid),
  authorSteamId: String(r.author?.steamid ?? ''),
  language: r.language ?? '',
  review: r.review ?? '',
  votedUp: Boolean(r.voted_up),
  votesUp: Number(r.votes_up ?? 0),
  votesFunny: Number(r.votes_funny ?? 0),
  playtimeAtReview: r.author?.playtime_at_review ?? null,
  playtimeForever: r.author?.playtime_forever ?? null,
  steamPurchase: r.steam_purchase ?? true,
  receivedForFree: r.received_for_free ?? false,
  writtenDuringEarlyAccess: r.written_during_early_access ?? false,
  postedAt: new Date(Number(r.timestamp_created) * 1000),
  editedAt: r.timestamp_updated ? new Date(Number(r.timestamp_updated) * 1000) : null,
  createdAt: now,
})

/**
 * Imports an app's reviews newest first, each stored once by its recommendationid. It stops at the
 * first page that brings nothing new (everything older is stored already), at the end of the list
 * (no reviews, or the same cursor again) or after MAX_PAGES_PER_SYNC pages. Records the outcome on
 * the app either way; throws SteamError when Steam refuses or cannot be reached.
 */
export async function syncReviews(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, app: SteamApp, signal?: AbortSignal): Promise<{ fetched: number; new: number }> {
  let cursor = '*'
  let fetched = 0
  let added = 0
  let summary: SteamSummary | null = null
  const repo = createSteamRepository({ db: deps.db })
  try {
    for (let page = 0; page < MAX_PAGES_PER_SYNC; page++) {
      const got = await fetchReviewPage(deps.config, app.appId, cursor, signal)
      if (page === 0) summary = got.summary
      fetched += got.reviews.length
      const valid = got.reviews.filter((r) => r && r.recommendationid !== undefined && Number.isFinite(Number(r.timestamp_created)))
      const now = deps.clock.now()
      const inserted = await repo.insertReviews(valid.map((r) => row(app.projectId, app.appId, r, now)))
      added += inserted
      if (got.reviews.length === 0 || inserted === 0 || !got.cursor || got.cursor === cursor) break
      cursor = got.cursor
    }
  } catch (err) {
    const message = err instanceof SteamError ? err.message : `sync failed (${String(err)})`
    await repo.recordSync(app.id, { lastSyncAt: deps.clock.now(), lastSyncFetched: fetched, lastSyncNew: added, lastSyncError: message, updatedAt: deps.clock.now() }, true)
    throw err instanceof SteamError ? err : new SteamError(message)
  }
  const now = deps.clock.now()
  await repo.recordSync(
    app.id,
    {
      ...(summary
        ? {
            reviewScore: summary.review_score ?? null,
            reviewScoreDesc: summary.review_score_desc ?? null,
            totalPositive: summary.total_positive ?? null,
            totalNegative: summary.total_negative ?? null,
            totalReviews: summary.total_reviews ?? null,
          }
        : {}),
      lastSyncAt: now,
      lastSyncFetched: fetched,
      lastSyncNew: added,
      lastSyncError: null,
      updatedAt: now,
    },
    false,
  )
  return { fetched, new: added }
}
