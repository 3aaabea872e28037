import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, int64 } from '../../db/columns'
import { reports } from '../reports/reports.table'

export const attachments = sqliteTable(
  'attachments',
  {
    id: text('id').primaryKey(),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    /** The occurrence whose submission carried the file (it moves with it on split and merge); null when added later. */
    occurrenceId: text('occurrence_id'),
    fileKey: text('file_key').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: int64('file_size').notNull(),
    mimeType: text('mime_type'),
    createdAt: createdAt(),
  },
  (t) => [index('attachments_report_idx').on(t.reportId)],
)
