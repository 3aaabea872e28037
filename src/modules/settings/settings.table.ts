import { primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { json, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'

export const SETTINGS_KINDS = ['tracker', 'roadmap', 'branding', 'widget'] as const
export type SettingsKind = (typeof SETTINGS_KINDS)[number]

/** Public-page settings of a project, one JSON document per kind; a missing row means "defaults". */
export const projectSettings = sqliteTable(
  'project_settings',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SETTINGS_KINDS }).notNull(),
    value: json<Record<string, unknown>>('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.kind] })],
)
