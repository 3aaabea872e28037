import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'

/** A project's game on Steam, whose public store reviews are imported; one per project. */
export const steamApps = sqliteTable(
  'steam_apps',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    appId: integer('app_id').notNull(),
    syncEnabled: bool('sync_enabled').notNull().default(true),
    /** Steam's `query_summary` at the last sync: score 0-9 with its words, and the all-time counts. */
    reviewScore: integer('review_score'),
    reviewScoreDesc: text('review_score_desc'),
    totalPositive: integer('total_positive'),
    totalNegative: integer('total_negative'),
    totalReviews: integer('total_reviews'),
    lastSyncAt: timestamp('last_sync_at'),
    lastSyncFetched: integer('last_sync_fetched'),
    lastSyncNew: integer('last_sync_new'),
    lastSyncError: text('last_sync_error'),
    syncCount: integer('sync_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('steam_apps_project_unique').on(t.projectId)],
)

/** One Steam review, stored once per project by its `recommendationid`. */
export const steamReviews = sqliteTable(
  'steam_reviews',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    appId: integer('app_id').notNull(),
    recommendationId: text('recommendation_id').notNull(),
    authorSteamId: text('author_steam_id').notNull().default(''),
    language: text('language').notNull().default(''),
    review: text('review').notNull(),
    votedUp: bool('voted_up').notNull(),
    votesUp: integer('votes_up').notNull().default(0),
    votesFunny: integer('votes_funny').notNull().default(0),
    /** Minutes, as Steam gives them. */
    playtimeAtReview: integer('playtime_at_review'),
    playtimeForever: integer('playtime_forever'),
    steamPurchase: bool('steam_purchase').notNull().default(true),
    receivedForFree: bool('received_for_free').notNull().default(false),
    writtenDuringEarlyAccess: bool('written_during_early_access').notNull().default(false),
    /** Steam's `timestamp_created` / `timestamp_updated`. */
    postedAt: timestamp('posted_at').notNull(),
    editedAt: timestamp('edited_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('steam_reviews_project_recommendation_unique').on(t.projectId, t.recommendationId),
    index('steam_reviews_project_posted_idx').on(t.projectId, t.postedAt),
  ],
)
