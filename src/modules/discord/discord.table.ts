import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'

/** A project's Discord application, whose `/report` command files reports; one per project, one project per application. */
export const discordApps = sqliteTable(
  'discord_apps',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    applicationId: text('application_id').notNull(),
    /** Hex Ed25519 key every interaction is verified with. */
    publicKey: text('public_key').notNull(),
    /** The bot token: AES-256-GCM under `secrets.key` (integrations/credentials.crypto.ts), bound to the row id, never returned. */
    botTokenEnc: text('bot_token_enc').notNull(),
    /** Its last four characters, to tell two tokens apart on the screen. */
    botTokenHint: text('bot_token_hint').notNull(),
    guildId: text('guild_id').notNull(),
    /** Where status replies go; null: the channel the report came from. */
    replyChannelId: text('reply_channel_id'),
    repliesEnabled: bool('replies_enabled').notNull().default(true),
    /** Most reports one Discord user files in an hour. */
    reportsPerHour: integer('reports_per_hour').notNull().default(10),
    /** Discord user ids whose `/report` is refused. */
    blockedUserIds: json<string[]>('blocked_user_ids').notNull().default([]),
    commandRegisteredAt: timestamp('command_registered_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('discord_apps_project_unique').on(t.projectId), uniqueIndex('discord_apps_application_unique').on(t.applicationId)],
)

/**
 * One `/report` form a player sent, by its interaction id: what it held until it is filed (or voted
 * on instead), the report it became, and who to mention when that report changes status. Also the
 * per-user hourly count.
 */
export const discordSubmissions = sqliteTable(
  'discord_submissions',
  {
    interactionId: text('interaction_id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    /** `command` (a `/report` holding its screenshot option for the form), `pending` (queued), `suggested` (similar reports offered), `filed`, `voted`. */
    status: text('status', { enum: ['command', 'pending', 'suggested', 'filed', 'voted'] }).notNull().default('pending'),
    /** The parsed submission and the interaction token that edits the answer (valid 15 minutes). */
    payload: json<Record<string, unknown>>('payload').notNull(),
    reportId: text('report_id').references(() => reports.id, { onDelete: 'set null' }),
    reportNumber: integer('report_number'),
    channelId: text('channel_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('discord_submissions_user_idx').on(t.projectId, t.userId, t.createdAt), index('discord_submissions_report_idx').on(t.reportId)],
)
