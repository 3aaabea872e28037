import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'

/** Generic outgoing webhooks of a project (spec 4.6). */
export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    url: text('url').notNull(),
    /** Shown back by the list route (spec 4.6), so stored as given. */
    secret: text('secret'),
    /** Comma-separated subset of bug_created, bug_updated, comment_added. */
    eventTypes: text('event_types').notNull(),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_project_idx').on(t.projectId)],
)

/** One event sent to one webhook; its id is the X-Glitchbox-Delivery header, stable across retries. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    webhookId: text('webhook_id').notNull().references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    /** The exact JSON body, so every retry sends the same bytes and signature. */
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt)],
)

/** Every attempt of a delivery: what the receiver answered, how long it took, or why it failed. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    deliveryId: text('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    /** First 500 characters of the receiver's answer. */
    responseSnippet: text('response_snippet'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
)
