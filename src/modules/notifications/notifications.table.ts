import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, updatedAt } from '../../db/columns'
import { users } from '../auth/auth.table'
import { reports } from '../reports/reports.table'

/** A user's mail preferences (spec 4.12); no row means every preference is on. */
export const notificationPreferences = sqliteTable('notification_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailBugCreated: bool('email_bug_created').notNull().default(true),
  emailBugStatus: bool('email_bug_status').notNull().default(true),
  emailBugAssigned: bool('email_bug_assigned').notNull().default(true),
  emailBugCommented: bool('email_bug_commented').notNull().default(true),
  emailWeeklyDigest: bool('email_weekly_digest').notNull().default(true),
  updatedAt: updatedAt(),
})

/** Who follows a report: its creator and everyone who commented on it. */
export const reportSubscriptions = sqliteTable(
  'report_subscriptions',
  {
    reportId: text('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.userId] })],
)

/** Fan-out jobs already turned into mails, so a job re-run after a crash does not mail twice. */
export const notificationFanouts = sqliteTable('notification_fanouts', {
  jobId: integer('job_id').primaryKey(),
  createdAt: createdAt(),
})

/** The key that signs unsubscribe links; one row, created on first use. */
export const notificationKeys = sqliteTable('notification_keys', {
  id: integer('id').primaryKey(),
  key: text('key').notNull(),
})
