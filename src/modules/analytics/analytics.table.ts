import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamp } from '../../db/columns'
import { projects } from '../projects/projects.table'

const projectRef = () =>
  text('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' })

/**
 * Submissions per project, UTC day, game version and platform, counted by the analytics rollup job
 * from the occurrences added since its cursor (analytics.rollup.ts): `events` counts every
 * occurrence, `reports` the ones that filed a new report.
 */
export const analyticsDailyReports = sqliteTable(
  'analytics_daily_reports',
  {
    projectId: projectRef(),
    day: text('day').notNull(),
    gameVersion: text('game_version').notNull(),
    platform: text('platform').notNull(),
    reports: integer('reports').notNull().default(0),
    /** Reports in the `crash` category or carrying an `error_type` (crashes and errors). */
    crashReports: integer('crash_reports').notNull().default(0),
    /** Occurrences (every submission, the first of each report included), and those of crash or error reports. */
    events: integer('events').notNull().default(0),
    crashEvents: integer('crash_events').notNull().default(0),
    /** Occurrences that are crashes (reports/report-crash.ts); `crash_events - crashes` are errors. */
    crashes: integer('crashes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.gameVersion, t.platform] })],
)

/** Crash and error occurrences grouped by their reports' fingerprint (ingest/fingerprint.ts), as the report list groups them. */
export const analyticsCrashGroups = sqliteTable(
  'analytics_crash_groups',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    projectId: projectRef(),
    fingerprint: text('fingerprint').notNull().default(''),
    /** The fingerprint as a person reads it (`NullReferenceException at Shop.Buy (Shop.cs)`). */
    label: text('label').notNull().default(''),
    errorType: text('error_type').notNull(),
    frame: text('frame').notNull(),
    /** Title of the newest report in the group. */
    sampleTitle: text('sample_title').notNull(),
    sampleReportNumber: integer('sample_report_number').notNull(),
    count: integer('count').notNull().default(0),
    /** Occurrences of the group that are crashes (reports/report-crash.ts); the rest are errors. */
    crashes: integer('crashes').notNull().default(0),
    players: integer('players').notNull().default(0),
    firstSeen: timestamp('first_seen').notNull(),
    lastSeen: timestamp('last_seen').notNull(),
  },
  (t) => [uniqueIndex('analytics_crash_groups_fingerprint').on(t.projectId, t.fingerprint), index('analytics_crash_groups_count_idx').on(t.projectId, t.count)],
)

/** Occurrences of a crash group per game version, and the distinct players they came from. */
export const analyticsCrashGroupVersions = sqliteTable(
  'analytics_crash_group_versions',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => analyticsCrashGroups.id, { onDelete: 'cascade' }),
    gameVersion: text('game_version').notNull(),
    count: integer('count').notNull().default(0),
    /** Rows of analytics_crash_group_version_players (crash-group-players.ts), counted as they are added. */
    players: integer('players').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.gameVersion] })],
)

/** Distinct players per crash group, so `players` counts each player once. */
export const analyticsCrashGroupPlayers = sqliteTable(
  'analytics_crash_group_players',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => analyticsCrashGroups.id, { onDelete: 'cascade' }),
    playerId: text('player_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.playerId] })],
)

/** Game versions a project has seen (sessions or reports), with when first seen: the fallback order when versions are not semantic. */
export const analyticsVersions = sqliteTable(
  'analytics_versions',
  {
    projectId: projectRef(),
    gameVersion: text('game_version').notNull(),
    firstSeen: timestamp('first_seen').notNull(),
    /** Rows of analytics_version_players for this version, counted as they are added (release health reads it without counting them). */
    players: integer('players').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.gameVersion] })],
)

/** Distinct players per game version (from sessions and reports), kept after retention deletes the sessions. */
export const analyticsVersionPlayers = sqliteTable(
  'analytics_version_players',
  {
    projectId: projectRef(),
    gameVersion: text('game_version').notNull(),
    playerId: text('player_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.gameVersion, t.playerId] })],
)

/** Reports per player (by filing order), so a player's reports are read without scanning the project's reports. */
export const analyticsPlayerReports = sqliteTable(
  'analytics_player_reports',
  {
    projectId: projectRef(),
    playerId: text('player_id').notNull(),
    reportSeq: integer('report_seq').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.playerId, t.reportSeq] })],
)

/** Normalized recent-log lines of auto-filed reports per UTC day: reports whose log held the line. */
export const analyticsLogLines = sqliteTable(
  'analytics_log_lines',
  {
    projectId: projectRef(),
    day: text('day').notNull(),
    line: text('line').notNull(),
    count: integer('count').notNull().default(0),
    lastSeen: timestamp('last_seen').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.line] })],
)

/**
 * Performance samples per project, game version, platform and metric, as a histogram of rounded
 * values (fps to 1, milliseconds to 0.1, megabytes to 3 significant digits, seconds to 0.01): percentiles are exact over
 * the rounded values. Samples without a report (scene loads) count under `scene_load.<metric>`.
 */
export const analyticsPerfHistogram = sqliteTable(
  'analytics_perf_histogram',
  {
    projectId: projectRef(),
    gameVersion: text('game_version').notNull(),
    platform: text('platform').notNull(),
    metric: text('metric').notNull(),
    value: real('value').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.gameVersion, t.platform, t.metric, t.value] })],
)

/** Live reports per project by priority and by category, kept by triggers (analytics.triggers.ts). */
export const analyticsReportDimensions = sqliteTable(
  'analytics_report_dimensions',
  {
    projectId: projectRef(),
    /** `priority` or `category`. */
    dimension: text('dimension').notNull(),
    value: text('value').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.dimension, t.value] })],
)

/** Reports moved into `resolved` per project and UTC day, kept by a trigger on status changes. */
export const analyticsDailyResolved = sqliteTable(
  'analytics_daily_resolved',
  {
    projectId: projectRef(),
    day: text('day').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] })],
)

/** Regression decisions: a resolved report and a newer one, confirmed or dismissed (never suggested again). */
export const analyticsRegressions = sqliteTable(
  'analytics_regressions',
  {
    id: text('id').primaryKey(),
    projectId: projectRef(),
    originalBugId: text('original_bug_id').notNull(),
    newBugId: text('new_bug_id').notNull(),
    status: text('status', { enum: ['confirmed', 'dismissed'] }).notNull(),
    resolvedVersion: text('resolved_version').notNull().default(''),
    regressedVersion: text('regressed_version').notNull().default(''),
    decidedBy: text('decided_by'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [uniqueIndex('analytics_regressions_pair').on(t.projectId, t.originalBugId, t.newBugId)],
)

/** The team's notes and sentiment about a player. */
export const analyticsPlayerNotes = sqliteTable(
  'analytics_player_notes',
  {
    projectId: projectRef(),
    playerId: text('player_id').notNull(),
    notes: text('notes').notNull().default(''),
    sentiment: text('sentiment', { enum: ['positive', 'neutral', 'negative'] }),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.playerId] })],
)

/**
 * Telemetry events per project, UTC day and name for the days the retention rollup has not reached
 * yet (today, and yesterday until its nightly run), counted by the analytics job from a cursor on
 * `events.id`; days the retention rollup covers are pruned.
 */
export const analyticsEventDays = sqliteTable(
  'analytics_event_days',
  {
    projectId: projectRef(),
    day: text('day').notNull(),
    eventName: text('event_name').notNull(),
    count: integer('count').notNull().default(0),
    /** Distinct non-null session tokens of that name that day (rows of analytics_event_day_sessions). */
    sessions: integer('sessions').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.eventName] })],
)

/** The distinct session tokens behind `analytics_event_days.sessions`, pruned with it. */
export const analyticsEventDaySessions = sqliteTable(
  'analytics_event_day_sessions',
  {
    nameId: integer('name_id').notNull(),
    day: text('day').notNull(),
    sessionToken: text('session_token').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.nameId, t.sessionToken] })],
)
