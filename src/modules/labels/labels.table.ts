import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { createdAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'

export const DEFAULT_LABEL_COLOR = '#2E5BFF'

export const labels = sqliteTable(
  'labels',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    color: text('color').notNull().default(DEFAULT_LABEL_COLOR),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('labels_project_name_unique').on(t.projectId, t.name)],
)

export const reportLabels = sqliteTable(
  'report_labels',
  {
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    /** The report's `seq`, so a label filter walks its reports newest first through one index. */
    reportSeq: integer('report_seq').notNull(),
    labelId: text('label_id').notNull().references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.labelId] }), index('report_labels_label_seq_idx').on(t.labelId, t.reportSeq)],
)
