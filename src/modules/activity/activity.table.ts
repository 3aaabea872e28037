import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, json } from '../../db/columns'

/** Report and project activity: who changed which field from what to what. */
export const activity = sqliteTable(
  'activity',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    projectId: text('project_id').notNull(),
    reportId: text('report_id'),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    field: text('field'),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    createdAt: createdAt(),
  },
  (t) => [index('activity_project_idx').on(t.projectId, t.seq), index('activity_report_idx').on(t.reportId, t.seq)],
)

/** Audit log of settings, label, member, permission, invitation and integration changes. */
export const auditLog = sqliteTable(
  'audit_log',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    accountId: text('account_id').notNull(),
    projectId: text('project_id'),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    target: text('target'),
    details: json<Record<string, unknown>>('details'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_project_idx').on(t.projectId, t.seq), index('audit_account_idx').on(t.accountId, t.seq)],
)
