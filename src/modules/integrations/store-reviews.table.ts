import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { integrations } from './integrations.table'

/** A review imported from a store (google_play, app_store), once per store review id and project. */
export const storeReviews = sqliteTable(
  'store_reviews',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** The connection that imported it; replies go through it (or another connection of the same store). */
    integrationId: text('integration_id').references(() => integrations.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The store's id of the review. */
    storeReviewId: text('store_review_id').notNull(),
    author: text('author'),
    rating: integer('rating').notNull(),
    title: text('title'),
    body: text('body').notNull().default(''),
    language: text('language'),
    appVersion: text('app_version'),
    device: text('device'),
    territory: text('territory'),
    /** When the reviewer wrote (or last edited) it, as the store says. */
    reviewedAt: timestamp('reviewed_at').notNull(),
    replyBody: text('reply_body'),
    repliedAt: timestamp('replied_at'),
    /** App Store: the response's id and publishing state (PENDING_PUBLISH, PUBLISHED). */
    replyExternalId: text('reply_external_id'),
    replyState: text('reply_state'),
    /** The report `review_bugs` filed for it (one- and two-star reviews, once). */
    reportId: text('report_id').references(() => reports.id, { onDelete: 'set null' }),
    /** Set once filing was done (or tried): a report deleted later is not filed again. */
    filedAt: timestamp('filed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('store_reviews_unique').on(t.projectId, t.provider, t.storeReviewId),
    index('store_reviews_list_idx').on(t.projectId, t.reviewedAt),
    index('store_reviews_integration_idx').on(t.integrationId),
  ],
)
