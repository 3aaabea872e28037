import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp, updatedAt } from '../../db/columns'
import { users } from '../auth/auth.table'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { PRIORITIES, CATEGORIES } from '../reports/reports.types'

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

/** SLA rules: one per priority, in hours. */
export const slaRules = sqliteTable(
  'sla_rules',
  {
    projectId: projectRef(),
    priority: text('priority', { enum: PRIORITIES }).notNull(),
    responseHours: real('response_hours').notNull(),
    resolveHours: real('resolve_hours').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.priority] })],
)

/**
 * A report's SLA clock, set when it is filed under a rule (and again when its priority or the rules
 * change): response is met by the first team comment or status change, resolve by reaching a done
 * status. The breach job walks only the partial indexes of clocks still running.
 */
export const reportSla = sqliteTable(
  'report_sla',
  {
    reportId: text('report_id').primaryKey().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: projectRef(),
    startedAt: timestamp('started_at').notNull(),
    responseDueAt: timestamp('response_due_at'),
    resolveDueAt: timestamp('resolve_due_at'),
    respondedAt: timestamp('responded_at'),
    resolvedAt: timestamp('resolved_at'),
    responseBreachedAt: timestamp('response_breached_at'),
    resolveBreachedAt: timestamp('resolve_breached_at'),
  },
  (t) => [
    index('report_sla_response_running_idx').on(t.responseDueAt).where(sql`response_due_at IS NOT NULL AND responded_at IS NULL AND response_breached_at IS NULL`),
    index('report_sla_resolve_running_idx').on(t.resolveDueAt).where(sql`resolve_due_at IS NOT NULL AND resolved_at IS NULL AND resolve_breached_at IS NULL`),
    index('report_sla_project_resolve_idx').on(t.projectId, t.resolveDueAt),
  ],
)

export const savedFilters = sqliteTable(
  'saved_filters',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    projectId: projectRef(),
    name: text('name').notNull(),
    filters: json<Record<string, string>>('filters').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('saved_filters_user_idx').on(t.userId, t.projectId)],
)

export const savedViews = sqliteTable(
  'saved_views',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    projectId: projectRef(),
    name: text('name').notNull(),
    filters: json<Record<string, string>>('filters').notNull(),
    sortBy: text('sort_by'),
    pinned: bool('pinned').notNull().default(false),
    /** 0-based and gapless among the owner's views of the project. */
    position: integer('position').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('saved_views_user_idx').on(t.userId, t.projectId, t.position)],
)

export const ALERT_METRICS = ['new_reports', 'new_crash_reports', 'crash_rate', 'negative_sentiment', 'escalating_reports'] as const
export type AlertMetric = (typeof ALERT_METRICS)[number]

export const alertRules = sqliteTable(
  'alert_rules',
  {
    id: text('id').primaryKey(),
    projectId: projectRef(),
    metric: text('metric', { enum: ALERT_METRICS }).notNull(),
    threshold: real('threshold').notNull(),
    windowHours: integer('window_hours').notNull(),
    enabled: bool('enabled').notNull().default(true),
    lastEvaluatedAt: timestamp('last_evaluated_at'),
    lastValue: real('last_value'),
    lastFiredAt: timestamp('last_fired_at'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('alert_rules_project_idx').on(t.projectId)],
)

/**
 * New reports per project and hour (all, crash category, negative sentiment), counted by the alert job
 * from the reports added since its cursor, so alert windows never scan reports and the submit path pays nothing.
 */
export const reportHourlyCounts = sqliteTable(
  'report_hourly_counts',
  {
    projectId: projectRef(),
    hour: timestamp('hour').notNull(),
    reports: integer('reports').notNull().default(0),
    crashReports: integer('crash_reports').notNull().default(0),
    negativeReports: integer('negative_reports').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.hour] })],
)

/** Where a background counter stopped (e.g. the last report seq counted into hourly counts). */
export const rollupCursors = sqliteTable('rollup_cursors', {
  name: text('name').primaryKey(),
  position: integer('position').notNull(),
})

/** Reports created by an import, with where they came from; `external_id` makes imports idempotent per project. */
export const reportImports = sqliteTable(
  'report_imports',
  {
    reportId: text('report_id').primaryKey().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: projectRef(),
    externalId: text('external_id'),
    externalUrl: text('external_url'),
    importId: text('import_id').notNull(),
    importedBy: text('imported_by'),
    importedAt: timestamp('imported_at').notNull(),
  },
  (t) => [uniqueIndex('report_imports_external_unique').on(t.projectId, t.externalId), index('report_imports_project_idx').on(t.projectId, t.importedAt)],
)
