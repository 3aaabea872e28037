import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, timestamp, updatedAt } from '../../db/columns'
import { accounts } from '../auth/accounts.table'
import { users } from '../auth/auth.table'

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    websiteUrl: text('website_url').notNull().default(''),
    logoUrl: text('logo_url').notNull().default(''),
    /** Shown again with project details (spec 5.4), so kept as is; looked up by unique index. */
    apiKey: text('api_key').notNull(),
    /**
     * The key before the last rotation, still accepted until `previousApiKeyExpiresAt` (the grace the
     * studio chose: shipped builds cannot all be updated at once); null when none is running.
     */
    previousApiKey: text('previous_api_key'),
    previousApiKeyExpiresAt: timestamp('previous_api_key_expires_at'),
    isPublic: bool('is_public').notNull().default(true),
    screenshotCapture: bool('screenshot_capture').notNull().default(true),
    sessionCapture: bool('session_capture').notNull().default(false),
    autoFileErrors: bool('auto_file_errors').notNull().default(true),
    captureEditorErrors: bool('capture_editor_errors').notNull().default(false),
    captureWarnings: bool('capture_warnings').notNull().default(false),
    bugGrouping: bool('bug_grouping').notNull().default(true),
    /**
     * The number in the project's Sentry DSN (`https://KEY@host/DSN_ID`): positive, unique on the
     * server and never given twice (assigned on insert by the trigger in projects.repository.ts, whoever inserts).
     */
    dsnId: integer('dsn_id'),
    /** Last allocated report number; bumped in the inserting transaction so numbers never repeat or skip. */
    lastReportNumber: integer('last_report_number').notNull().default(0),
    /** Live (not deleted) report count, kept in step with inserts and deletes to avoid COUNT(*) per request. */
    liveReportCount: integer('live_report_count').notNull().default(0),
    firstReportAt: timestamp('first_report_at'),
    firstSessionAt: timestamp('first_session_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('projects_slug_unique').on(t.slug),
    uniqueIndex('projects_api_key_unique').on(t.apiKey),
    uniqueIndex('projects_previous_api_key_unique').on(t.previousApiKey),
    uniqueIndex('projects_dsn_id_unique').on(t.dsnId),
    index('projects_account_idx').on(t.accountId),
  ],
)

/**
 * The slugs a project had before a rename: `/tracker/{old}` and the other URLs with the slug answer a
 * redirect to the new one until `expiresAt` (90 days after the rename), and nobody else may take it
 * until then. A slug is held by one project at a time (its primary key).
 */
export const projectSlugRedirects = sqliteTable(
  'project_slug_redirects',
  {
    slug: text('slug').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('project_slug_redirects_project_idx').on(t.projectId)],
)
