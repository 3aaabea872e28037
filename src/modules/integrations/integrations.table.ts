import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'

/** A project's connection to one external tool (spec 4.7); the credential is stored encrypted. */
export const integrations = sqliteTable(
  'integrations',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** A provider key of CONTRACT.md (slack, pagerduty, …). */
    provider: text('provider').notNull(),
    name: text('name').notNull(),
    /** AES-256-GCM under `secrets.key` of the data directory (credentials.crypto.ts); never returned. */
    secretEnc: text('secret_enc').notNull(),
    /** `…` and the credential's last four characters, so a person can tell two apart. */
    secretHint: text('secret_hint').notNull(),
    eventTypes: json<string[]>('event_types').notNull(),
    /** Events of reports below this priority are not sent. */
    minPriority: text('min_priority', { enum: ['critical', 'high', 'medium', 'low'] }).notNull(),
    config: json<Record<string, unknown>>('config').notNull(),
    /** False pauses the connection: nothing is sent and queued retries wait until it is active again. */
    isActive: bool('is_active').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('integrations_project_idx').on(t.projectId, t.provider)],
)

/** One message or call for one connection (a chat post, an incident trigger or resolve, a crash lookup), retried as a job. */
export const integrationDeliveries = sqliteTable(
  'integration_deliveries',
  {
    id: text('id').primaryKey(),
    integrationId: text('integration_id').notNull().references(() => integrations.id, { onDelete: 'cascade' }),
    /** bug_created, bug_updated, comment_added, digest or alert. */
    event: text('event').notNull(),
    /** What the provider is asked to do: post, trigger, resolve, link. */
    action: text('action').notNull(),
    reportId: text('report_id'),
    /** The event as it was when it happened, so every retry sends the same thing. */
    payload: json<Record<string, unknown>>('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** The provider's last answer (first 500 characters). */
    response: text('response'),
    nextAttemptAt: timestamp('next_attempt_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('integration_deliveries_integration_idx').on(t.integrationId, t.createdAt),
    index('integration_deliveries_report_idx').on(t.reportId, t.integrationId),
  ],
)

/** Every attempt of a delivery: the provider's status and answer, or why the call failed. */
export const integrationAttempts = sqliteTable(
  'integration_attempts',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    deliveryId: text('delivery_id').notNull().references(() => integrationDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    response: text('response'),
    createdAt: createdAt(),
  },
  (t) => [index('integration_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
)

/** An item in another tool linked to a report: a tracker issue filed for it or the crash tracker's matching issue. */
export const integrationLinks = sqliteTable(
  'integration_links',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    integrationId: text('integration_id').references(() => integrations.id, { onDelete: 'set null' }),
    provider: text('provider').notNull(),
    /** The other tool's id of the item (issue key, Sentry short id, …). */
    externalId: text('external_id').notNull(),
    url: text('url').notNull(),
    title: text('title').notNull().default(''),
    /** The tracker state the item was last moved to (trackers only). */
    state: text('state'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('integration_links_report_integration_unique').on(t.reportId, t.integrationId), index('integration_links_integration_idx').on(t.integrationId)],
)
