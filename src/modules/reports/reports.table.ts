import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp, updatedAt } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { CATEGORIES, PRIORITIES, SENTIMENTS, SOURCES, STATUSES } from './reports.types'

const live = sql`deleted_at IS NULL`

/** Bug reports. `rowid` (an implicit alias would hide it) backs the FTS5 index in reports.fts.ts. */
export const reports = sqliteTable(
  'reports',
  {
    /** Integer key so the FTS5 external-content table can point at rows cheaply. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    reportNumber: integer('report_number').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: STATUSES }).notNull().default('open'),
    priority: text('priority', { enum: PRIORITIES }).notNull().default('medium'),
    /** 0 critical .. 3 low, so "sort by priority" is an index scan. */
    priorityRank: integer('priority_rank').notNull().default(2),
    category: text('category', { enum: CATEGORIES }).notNull().default('other'),
    platform: text('platform').notNull().default(''),
    gameVersion: text('game_version').notNull().default(''),
    osInfo: text('os_info').notNull().default(''),
    deviceInfo: text('device_info').notNull().default(''),
    stepsToReproduce: text('steps_to_reproduce').notNull().default(''),
    expectedBehavior: text('expected_behavior').notNull().default(''),
    actualBehavior: text('actual_behavior').notNull().default(''),
    assignedTo: text('assigned_to'),
    isPrivate: bool('is_private').notNull().default(false),
    /**
     * Explicit publication on the public pages (report-publication.ts): null follows the tracker's
     * `publish` mode, true shows the report whatever the mode and the auto-filed rule, false hides it.
     */
    published: bool('published'),
    /** When a team member first touched it (status changed, labelled, commented publicly, published): `publish: triaged` shows these. */
    triagedAt: timestamp('triaged_at'),
    /** Put on the public roadmap by the team (when the roadmap is not driven by a label). */
    onRoadmap: bool('on_roadmap').notNull().default(false),
    errorType: text('error_type').notNull().default(''),
    /** The latest occurrence's client severity (`fatal`, `error`, `warning`, …), null when none said. */
    level: text('level'),
    /** False once any occurrence was unhandled (Sentry's `mechanism.handled: false`), true when all said handled, null when none said. */
    handled: bool('handled'),
    source: text('source', { enum: SOURCES }).notNull().default('user'),
    /**
     * Filed by a machine: an SDK's automatic capture or a Sentry event (`source = 'system'`), or a
     * description carrying a `--- Stack Trace ---` section. Computed, so an edit keeps it true;
     * such reports stay team-only unless the tracker's `include_auto_filed` is on.
     */
    autoFiled: bool('auto_filed').generatedAlwaysAs(
      sql`(source = 'system' OR description LIKE '--- Stack Trace ---%' OR instr(description, char(10) || '--- Stack Trace ---') > 0)`,
      { mode: 'virtual' },
    ),
    upvotes: integer('upvotes').notNull().default(0),
    /** Submissions grouped into this report (its occurrences, the first included). */
    occurrenceCount: integer('occurrence_count').notNull().default(1),
    /** Distinct players among its occurrences (report_players). */
    playerCount: integer('player_count').notNull().default(0),
    /** When the first and the latest occurrence arrived, and the game versions they came from. */
    firstSeen: timestamp('first_seen'),
    lastSeen: timestamp('last_seen'),
    firstVersion: text('first_version').notNull().default(''),
    lastVersion: text('last_version').notNull().default(''),
    /** Distinct game versions of its occurrences as a JSON array, most recently seen first, at most 20. */
    versions: text('versions').notNull().default('[]'),
    /** The newest game version seen on it when it was last resolved: older builds do not have the fix. */
    resolvedInVersion: text('resolved_in_version'),
    /** The version whose occurrence reopened it after it was resolved, and when. */
    regressedInVersion: text('regressed_in_version'),
    regressedAt: timestamp('regressed_at'),
    /** The grouping key (ingest/fingerprint.ts): submissions with this key join this report. */
    fingerprint: text('fingerprint').notNull().default(''),
    /** The key as a person reads it: `NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)`. */
    groupingLabel: text('grouping_label').notNull().default(''),
    /** The report this one was merged into (it is then deleted); its number answers with a redirect. */
    mergedInto: text('merged_into'),
    /** For a player's feedback sent with a Sentry SDK: the report of the event it is about. */
    feedbackFor: text('feedback_for'),
    sentimentScore: real('sentiment_score'),
    sentimentLevel: text('sentiment_level', { enum: SENTIMENTS }),
    /** The title's significant words as a JSON array: the possible-duplicates index (open-title-terms.ts) is built from it. */
    titleTerms: text('title_terms'),
    reporterName: text('reporter_name'),
    reporterEmail: text('reporter_email'),
    /** The player's platform account id (`steam_id` from the field SDKs). */
    playerId: text('player_id'),
    metadata: json<unknown>('metadata'),
    screenshotKey: text('screenshot_key'),
    createdBy: text('created_by'),
    dueDate: timestamp('due_date'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at'),
  },
  // List indexes are partial over live rows (every list query says `deleted_at IS NULL`) and end in
  // `seq`, so each filter or sort reads the page straight off one index in "newest first" order.
  (t) => [
    uniqueIndex('reports_id_unique').on(t.id),
    uniqueIndex('reports_project_number_unique').on(t.projectId, t.reportNumber),
    index('reports_live_idx').on(t.projectId, t.seq).where(live),
    index('reports_live_status_idx').on(t.projectId, t.status, t.seq).where(live),
    index('reports_live_status_priority_idx').on(t.projectId, t.status, t.priorityRank, t.seq).where(live),
    // seq descending: "priority" sorts by rank, then newest first, in one index walk.
    index('reports_live_priority_idx').on(t.projectId, t.priorityRank, sql`${sql.identifier('seq')} desc`).where(live),
    index('reports_live_category_idx').on(t.projectId, t.category, t.seq).where(live),
    index('reports_live_source_idx').on(t.projectId, t.source, t.seq).where(live),
    index('reports_live_updated_idx').on(t.projectId, t.updatedAt, t.seq).where(live),
    index('reports_live_upvotes_idx').on(t.projectId, t.upvotes, t.seq).where(live),
    index('reports_live_error_type_idx').on(t.projectId, t.errorType, t.seq).where(live),
    index('reports_live_assignee_idx').on(t.projectId, t.assignedTo, t.seq).where(live),
    // The reports of a grouping key, oldest first: the one a submission joins (the oldest that still
    // takes occurrences, ingest.repository.ts) and the list's `fingerprint:` filter (all of them). One
    // index for both: its key is random, so each index on it costs a new report a page of its own.
    index('reports_live_fingerprint_idx').on(t.projectId, t.fingerprint, t.seq).where(live),
    // is:regression: the few reports a newer build reopened, newest first.
    index('reports_live_regressed_idx').on(t.projectId, t.seq).where(sql`deleted_at IS NULL AND regressed_in_version IS NOT NULL`),
    index('reports_live_last_seen_idx').on(t.projectId, t.lastSeen, t.seq).where(live),
    index('reports_live_occurrences_idx').on(t.projectId, t.occurrenceCount, t.seq).where(live),
    index('reports_live_players_idx').on(t.projectId, t.playerCount, t.seq).where(live),
    // The public roadmap's columns: reports the team put on it, per status, most upvoted first; its
    // other terms (not private, not unpublished) are read from the index too.
    index('reports_roadmap_idx').on(t.projectId, t.status, t.upvotes, t.seq, t.isPrivate, t.published).where(sql`deleted_at IS NULL AND on_roadmap = 1`),
    index('reports_feedback_for_idx').on(t.feedbackFor).where(sql`feedback_for IS NOT NULL`),
    // sort=due and overdue=true read the project's dated reports in due order; the overdue-notice job
    // reads the last days' due dates across projects.
    index('reports_live_due_idx').on(t.projectId, t.dueDate, t.seq).where(sql`deleted_at IS NULL AND due_date IS NOT NULL`),
    index('reports_due_idx').on(t.dueDate).where(sql`deleted_at IS NULL AND due_date IS NOT NULL`),
  ],
)

/**
 * Live reports per project and status, kept by triggers (reports.counts.ts) on every write, so the
 * project list and stats never count a million rows.
 */
export const reportStatusCounts = sqliteTable(
  'report_status_counts',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    status: text('status', { enum: STATUSES }).notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.status] })],
)
