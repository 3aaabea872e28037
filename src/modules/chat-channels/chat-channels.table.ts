import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'

/** A Discord or Slack channel that receives the project's report events through an incoming webhook. */
export const chatChannels = sqliteTable(
  'chat_channels',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['discord', 'slack'] }).notNull(),
    /** The webhook URL is the credential: AES-256-GCM under `secrets.key` (integrations/credentials.crypto.ts), never returned. */
    webhookUrlEnc: text('webhook_url_enc').notNull(),
    /** Host and the URL's last four characters, so a person can tell two webhooks apart. */
    webhookUrlHint: text('webhook_url_hint').notNull(),
    channelName: text('channel_name').notNull(),
    /** Subset of bug_created, bug_updated, comment_added. */
    eventTypes: json<string[]>('event_types').notNull(),
    /** False pauses the channel: nothing new is posted and queued retries wait until it is active again. */
    isActive: bool('is_active').notNull().default(true),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chat_channels_project_idx').on(t.projectId, t.provider)],
)

/** One message for one channel, posted by a job and retried after 1, 5, 25 and 125 minutes. */
export const chatChannelDeliveries = sqliteTable(
  'chat_channel_deliveries',
  {
    id: text('id').primaryKey(),
    channelId: text('channel_id').notNull().references(() => chatChannels.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    reportId: text('report_id'),
    /** The exact JSON body, so every retry posts the same message. */
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    /** The receiver's last answer (first 500 characters). */
    response: text('response'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('chat_channel_deliveries_channel_idx').on(t.channelId, t.createdAt)],
)
