import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, updatedAt } from '../../db/columns'
import { reports } from '../reports/reports.table'

export const comments = sqliteTable(
  'comments',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    /** Null once the author's account is deleted; the comment stays with the report. */
    authorId: text('author_id'),
    body: text('body').notNull(),
    isInternal: bool('is_internal').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comments_report_idx').on(t.reportId, t.createdAt)],
)
