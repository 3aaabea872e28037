import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'

export const SteamConnection = z.object({
  id: z.string(),
  app_id: z.number().int(),
  store_url: z.string(),
  sync_enabled: z.boolean(),
  last_sync_at: isoDate.nullable(),
  created_at: isoDate,
  updated_at: isoDate,
})
export const SteamReview = z.object({
  recommendation_id: z.string(),
  author_steam_id: z.string(),
  language: z.string(),
  review: z.string(),
  voted_up: z.boolean().describe('True for a positive (recommended) review'),
  votes_up: z.number().int(),
  votes_funny: z.number().int(),
  playtime_at_review_minutes: z.number().int().nullable(),
  playtime_forever_minutes: z.number().int().nullable(),
  steam_purchase: z.boolean(),
  received_for_free: z.boolean(),
  written_during_early_access: z.boolean(),
  posted_at: isoDate,
  edited_at: isoDate.nullable(),
})
export const SteamReviewPage = z.object({ reviews: z.array(SteamReview), page: z.number().int(), per_page: z.number().int(), total: z.number().int() })
export const SteamDay = z.object({ date: z.string().describe('UTC day, YYYY-MM-DD'), total: z.number().int(), positive: z.number().int(), negative: z.number().int() })
export const SteamReviewHistory = z.array(SteamDay)
export const SteamDashboard = z.object({
  app_id: z.number().int(),
  review_score: z.number().int().nullable().describe("Steam's score 0-9 from query_summary at the last sync"),
  review_score_desc: z.string().nullable().describe('Its words, e.g. "Very Positive"'),
  total_positive: z.number().int().nullable(),
  total_negative: z.number().int().nullable(),
  total_reviews: z.number().int().nullable(),
  positive_share: z.number().nullable().describe("Positive share of all reviews (Steam's totals, else the stored reviews), 0-1"),
  stored_reviews: z.number().int(),
  last_sync_at: isoDate.nullable(),
  over_time: z.array(SteamDay.extend({ positive_share: z.number().nullable() })),
})
const SignalList = z.object({ total: z.number().int(), reviews: z.array(SteamReview).describe('Newest first, at most 50') })
export const SteamRefundSignals = z.object({
  playtime_threshold_minutes: z.number().int().describe("120: Steam refunds a game played under two hours"),
  low_playtime_negative: SignalList,
  refund_mentions: SignalList,
})
export const SteamSyncResult = z.object({ fetched: z.number().int().describe('Reviews Steam returned'), new: z.number().int().describe('Reviews not stored before') })
export const SteamSyncStats = z.object({
  sync_enabled: z.boolean(),
  last_sync_at: isoDate.nullable(),
  fetched: z.number().int().nullable(),
  new: z.number().int().nullable(),
  last_error: z.string().nullable().describe("Steam's answer when the last import failed"),
  errors: z.number().int().describe('Failed imports since Steam was connected'),
  syncs: z.number().int().describe('Successful imports since Steam was connected'),
  stored_reviews: z.number().int(),
})

export type SteamConnection = z.output<typeof SteamConnection>
export type SteamReviewPage = z.output<typeof SteamReviewPage>
export type SteamDashboard = z.output<typeof SteamDashboard>
export type SteamRefundSignals = z.output<typeof SteamRefundSignals>
export type SteamSyncStats = z.output<typeof SteamSyncStats>

export const steamDocs: OperationDocs = {
  'GET /api/projects/{slug}/steam': { data: SteamConnection, description: '404 when no Steam app is connected' },
  'POST /api/projects/{slug}/steam': { status: 201, data: SteamConnection, errors: [409] },
  'PATCH /api/projects/{slug}/steam': { data: MessageResponse },
  'DELETE /api/projects/{slug}/steam': { data: MessageResponse },
  'POST /api/projects/{slug}/steam/sync': { data: SteamSyncResult, errors: [502] },
  'GET /api/projects/{slug}/steam/dashboard': { data: SteamDashboard },
  'GET /api/projects/{slug}/steam/reviews': { data: SteamReviewPage },
  'GET /api/projects/{slug}/steam/review-history': { data: SteamReviewHistory },
  'GET /api/projects/{slug}/steam/refund-signals': { data: SteamRefundSignals },
  'GET /api/projects/{slug}/steam/sync-stats': { data: SteamSyncStats },
}
