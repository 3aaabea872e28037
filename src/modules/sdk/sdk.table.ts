import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { bool, createdAt, int64, json, timestamp } from '../../db/columns'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'

/** Play sessions the game client opens and closes; `crashed` feeds the crash-free rate. */
export const playSessions = sqliteTable(
  'play_sessions',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** The client's own token (8–128 chars, not necessarily a UUID), unique per project. */
    token: text('token').notNull(),
    playerId: text('player_id'),
    playerName: text('player_name'),
    platform: text('platform').notNull().default(''),
    gameVersion: text('game_version').notNull().default(''),
    deviceInfo: text('device_info').notNull().default(''),
    osInfo: text('os_info').notNull().default(''),
    startedAt: timestamp('started_at').notNull(),
    endedAt: timestamp('ended_at'),
    crashed: bool('crashed').notNull().default(false),
    durationSec: integer('duration_sec'),
    /** The deployment the session ran in, as Sentry SDKs tell it (`production`, `staging`); '' when not told. */
    environment: text('environment').notNull().default(''),
  },
  (t) => [
    uniqueIndex('play_sessions_project_token_unique').on(t.projectId, t.token),
    index('play_sessions_project_started_idx').on(t.projectId, t.startedAt),
    index('play_sessions_project_player_idx').on(t.projectId, t.playerId),
  ],
)

/** Players seen by a project's sessions, for player analytics. */
export const players = sqliteTable(
  'players',
  {
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    playerId: text('player_id').notNull(),
    name: text('name'),
    firstSeen: timestamp('first_seen').notNull(),
    lastSeen: timestamp('last_seen').notNull(),
    sessionCount: integer('session_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.playerId] })],
)

/** Dictionary of telemetry event names per project, so each event row carries a small integer. */
export const eventNames = sqliteTable(
  'event_names',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('event_names_project_name_unique').on(t.projectId, t.name)],
)

/**
 * Telemetry events, the largest table: an integer key, the name's dictionary id (which implies the
 * project), epoch ms, and only what the client sent (absent fields are NULL, one byte each).
 */
export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey(),
    nameId: integer('name_id').notNull().references(() => eventNames.id, { onDelete: 'cascade' }),
    createdAt: int64('created_at').notNull(),
    sessionToken: text('session_token'),
    platform: text('platform'),
    gameVersion: text('game_version'),
    /** `event_data` as JSON text; NULL when empty. */
    data: text('data'),
  },
  (t) => [index('events_name_created_idx').on(t.nameId, t.createdAt)],
)

/** Performance samples; `report_id` is null for samples not tied to a report (e.g. scene loads). */
export const perfSnapshots = sqliteTable(
  'perf_snapshots',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    reportId: text('report_id').references(() => reports.id, { onDelete: 'cascade' }),
    fps: real('fps'),
    frameTimeMs: real('frame_time_ms'),
    memoryUsedMb: real('memory_used_mb'),
    memoryTotalMb: real('memory_total_mb'),
    drawCalls: real('draw_calls'),
    triangles: real('triangles'),
    cpuUsage: real('cpu_usage'),
    gpuUsage: real('gpu_usage'),
    loadTimeSec: real('load_time_sec'),
    networkLatencyMs: real('network_latency_ms'),
    /** JSON text: an object as sent, or a string the client sent. */
    customMetrics: json<unknown>('custom_metrics'),
    createdAt: createdAt(),
  },
  (t) => [index('perf_snapshots_project_idx').on(t.projectId, t.createdAt), index('perf_snapshots_report_idx').on(t.reportId)],
)

/** Recorded gameplay (WebM, MP4 or GIF) attached to a report; tier 3. */
export const sessionReplays = sqliteTable(
  'session_replays',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    reportId: text('report_id').notNull().references(() => reports.id, { onDelete: 'cascade' }),
    fileKey: text('file_key').notNull(),
    fileSize: int64('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    durationSec: real('duration_sec'),
    /** Parsed JSON when the client sent JSON, else the string as sent. */
    metadata: json<unknown>('metadata'),
    createdAt: createdAt(),
  },
  (t) => [index('session_replays_report_idx').on(t.reportId)],
)
