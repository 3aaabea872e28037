import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp, updatedAt } from '../../db/columns'
import { users } from '../auth/auth.table'
import { projects } from '../projects/projects.table'
import { PRIORITIES, CATEGORIES, reports } from '../reports/reports.table'

const reportRef = (name: string) => text(name).notNull().references(() => reports.id, { onDelete: 'cascade' })
const projectRef = () => text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' })

/** "blocker blocks blocked": one row per link, read from either side. */
export const reportDependencies = sqliteTable(
  'report_dependencies',
  {
    id: text('id').primaryKey(),
    projectId: projectRef(),
    blockerId: reportRef('blocker_id'),
    blockedId: reportRef('blocked_id'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('report_dependencies_pair_unique').on(t.blockerId, t.blockedId), index('report_dependencies_blocked_idx').on(t.blockedId)],
)

/** Overdue notices already sent, one per report and due date, so a report's assignee hears once per date. */
export const dueNotices = sqliteTable(
  'report_due_notices',
  {
    reportId: reportRef('report_id'),
    dueDate: timestamp('due_date').notNull(),
    sentAt: timestamp('sent_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.dueDate] })],
)

export const FIELD_TYPES = ['text', 'number', 'date', 'select', 'multiselect', 'checkbox', 'url'] as const
export type FieldType = (typeof FIELD_TYPES)[number]

export const customFields = sqliteTable(
  'custom_fields',
  {
    id: text('id').primaryKey(),
    projectId: projectRef(),
    name: text('name').notNull(),
    fieldType: text('field_type', { enum: FIELD_TYPES }).notNull(),
    options: json<string[]>('options').notNull(),
    isRequired: bool('is_required').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('custom_fields_project_name_unique').on(t.projectId, sql`lower(${t.name})`)],
)

/** A report's value of one custom field, as JSON; `text_value` mirrors select values so the list can filter by index. */
export const customFieldValues = sqliteTable(
  'custom_field_values',
  {
    reportId: reportRef('report_id'),
    fieldId: text('field_id').notNull().references(() => customFields.id, { onDelete: 'cascade' }),
    value: json<unknown>('value').notNull(),
    textValue: text('text_value'),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.reportId, t.fieldId] }), index('custom_field_values_filter_idx').on(t.fieldId, t.textValue)],
)

export const reportTemplates = sqliteTable(
  'report_templates',
  {
    id: text('id').primaryKey(),
    projectId: projectRef(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    priority: text('priority', { enum: PRIORITIES }),
    category: text('category', { enum: CATEGORIES }),
    bodyTemplate: text('body_template').notNull().default(''),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('report_templates_project_name_unique').on(t.projectId, sql`lower(${t.name})`)],
)

/** One satisfaction rating per rater and report; a second rating replaces the first. */
export const reportRatings = sqliteTable(
  'report_ratings',
  {
    id: text('id').primaryKey(),
    reportId: reportRef('report_id'),
    raterId: text('rater_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('report_ratings_rater_unique').on(t.reportId, t.raterId)],
)
