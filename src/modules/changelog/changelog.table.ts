import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { createdAt, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'

/** Changelog entries; `published_at` null marks a draft. */
export const changelogEntries = sqliteTable(
  'changelog_entries',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    version: text('version').notNull().default(''),
    publishedAt: timestamp('published_at'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('changelog_project_published_idx').on(t.projectId, t.publishedAt), index('changelog_project_created_idx').on(t.projectId, t.createdAt)],
)
