import { sql } from 'drizzle-orm'
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, json, timestamp } from '../../db/columns'
import { reports } from '../reports/reports.table'
import { SOURCES } from '../reports/reports.types'

/**
 * Every submission grouped into a report, the first included, with its own evidence: what the
 * player or the game sent that time (text, stack trace and logs, device, version, player, files).
 * The report row holds the team's copy (editable) and the counts; these rows never change except
 * to move between reports (split, merge). `seq` orders them and is the analytics rollup's cursor.
 */
export const reportOccurrences = sqliteTable(
  'report_occurrences',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull(),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    projectId: text('project_id').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    stepsToReproduce: text('steps_to_reproduce').notNull().default(''),
    expectedBehavior: text('expected_behavior').notNull().default(''),
    actualBehavior: text('actual_behavior').notNull().default(''),
    source: text('source', { enum: SOURCES }).notNull().default('user'),
    errorType: text('error_type').notNull().default(''),
    deviceInfo: text('device_info').notNull().default(''),
    osInfo: text('os_info').notNull().default(''),
    /** The player's operating system (`Windows`), as the list's `platform:` filter reads it. */
    platform: text('platform').notNull().default(''),
    /** The runtime the game ran on (Sentry's `contexts.runtime`: `node`, `Mono`), and its version. */
    runtime: text('runtime').notNull().default(''),
    runtimeVersion: text('runtime_version').notNull().default(''),
    /** The browser of a web game (read from the event's user agent), and its version. */
    browser: text('browser').notNull().default(''),
    browserVersion: text('browser_version').notNull().default(''),
    /** Where the build ran as the client names it (`production`, `staging`); '' when it did not say. */
    environment: text('environment').notNull().default(''),
    gameVersion: text('game_version').notNull().default(''),
    playerId: text('player_id'),
    reporterName: text('reporter_name'),
    reporterEmail: text('reporter_email'),
    metadata: json<unknown>('metadata'),
    screenshotKey: text('screenshot_key'),
    /** The client that sent it when not Glitchbox's own SDK: `sentry.python 1.9.10`, `unreal-crash-reporter`. */
    client: text('client'),
    /** The client's own id of the event (Sentry's `event_id`), which user feedback refers to. */
    eventId: text('event_id'),
    /** The client's severity as sent (Sentry's `level`: `fatal`, `error`, `warning`, …), null when it sent none. */
    level: text('level'),
    /** Whether the client's exception mechanism handled it (Sentry's `mechanism.handled`), null when not said. */
    handled: bool('handled'),
    /** A crash, not an error (reports/report-crash.ts): a fatal level, an unhandled mechanism, a minidump, an Unreal crash, a crash report. */
    crash: bool('crash').notNull().default(false),
    /** When the event happened by the client's clock (clamped, ingest/event-time.ts); the report's first/last seen and the trend count it. */
    createdAt: createdAt(),
    /** When the server received it (later than `created_at` for an event a game cached offline); null on rows older than the column. */
    receivedAt: timestamp('received_at'),
  },
  (t) => [
    uniqueIndex('report_occurrences_id_unique').on(t.id),
    index('report_occurrences_report_idx').on(t.reportId, t.seq),
    index('report_occurrences_event_idx').on(t.projectId, t.eventId).where(sql`event_id IS NOT NULL`),
    // The trend (reports/report-trend.ts) reads occurrences by event time: a report's (its hourly and
    // daily counts, a list page's escalating marks and hourly sparklines) as a range of the first; a
    // project's last 25 hours (`is:escalating`, the "trending" sort, the alert) off the second alone,
    // which covers the report id too.
    index('report_occurrences_report_time_idx').on(t.reportId, t.createdAt),
    index('report_occurrences_project_time_idx').on(t.projectId, t.createdAt, t.reportId),
  ],
)

/**
 * The tags an occurrence carried (Sentry's `tags`, the SDK's `metadata.tags` and `metadata.custom_fields`:
 * reports/report-tags.ts), one row per key, for the report page's tag facet; `tag:key=value` searches
 * the report_facets rows they add. Keyed by the occurrence, so split and merge (which move occurrences
 * between reports) never touch them; deleted with it.
 */
export const occurrenceTags = sqliteTable(
  'occurrence_tags',
  {
    occurrenceId: text('occurrence_id')
      .notNull()
      .references(() => reportOccurrences.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
  },
  (t) => [primaryKey({ columns: [t.occurrenceId, t.key] })],
)

/**
 * The client event ids (Sentry's `event_id`) each project has taken in: an SDK that sends an event
 * again (a retry after a lost answer) gets the same answer and changes nothing. A row of its own,
 * claimed in the write that stores the event (one indexed INSERT OR IGNORE), so two copies arriving
 * together still count once; kept for the retention window (the retention job prunes older ones).
 */
export const ingestedEventIds = sqliteTable(
  'ingested_event_ids',
  {
    projectId: text('project_id').notNull(),
    eventId: text('event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId] }), index('ingested_event_ids_created_idx').on(t.createdAt)],
)
