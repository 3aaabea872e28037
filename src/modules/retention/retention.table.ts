import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { projects } from '../projects/projects.table'

/**
 * Telemetry events per project, UTC day and event name, rolled up from `events` before retention
 * deletes the raw rows (retention.rollups.ts). Days are complete: a day is rolled up once it is over.
 */
export const telemetryDailyEvents = sqliteTable(
  'telemetry_daily_events',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** UTC day, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    eventName: text('event_name').notNull(),
    count: integer('count').notNull(),
    /** Distinct non-null `session_token`s among that day's events of that name. */
    sessions: integer('sessions').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.eventName] })],
)

/**
 * Play sessions per project, UTC day of their start, game version and platform, rolled up from
 * `play_sessions`. The last two days are rolled up again on each run, so sessions ending after
 * midnight are counted once their end arrives.
 */
export const telemetryDailySessions = sqliteTable(
  'telemetry_daily_sessions',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    gameVersion: text('game_version').notNull(),
    platform: text('platform').notNull(),
    /** The sessions' environment as sent ('' when none was named), so release health reads one environment. */
    environment: text('environment').notNull().default(''),
    started: integer('started').notNull(),
    ended: integer('ended').notNull(),
    crashed: integer('crashed').notNull(),
    /** Distinct non-null player ids. */
    players: integer('players').notNull(),
    /** Sum of `duration_sec` of the ended sessions that reported one. */
    durationSec: integer('duration_sec').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.gameVersion, t.platform, t.environment] })],
)

/** How far each rollup has gone: the last complete UTC day rolled up (`events`, `sessions`). */
export const telemetryRollupState = sqliteTable('telemetry_rollup_state', {
  name: text('name').primaryKey(),
  throughDay: text('through_day').notNull(),
})
