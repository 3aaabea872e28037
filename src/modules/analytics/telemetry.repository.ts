import { and, desc, eq, gte, type SQL, sql } from 'drizzle-orm'
import { onPostgres, type Query, rowsOf, type Seam } from '../../db/client'
import { analyticsLogLines } from './analytics.table'
import { OCCURRENCES_CURSOR } from './report-daily'

/** The rollup cursor over `play_sessions` rowids (analytics.rollup.ts). */
export const SESSIONS_CURSOR = 'analytics_sessions'

export interface SessionDay {
  day: string
  game_version: string
  platform: string
  started: number
  ended: number
  crashed: number
}

export interface EventDay {
  day: string
  name: string
  count: number
  sessions: number
}

/** Which sessions a read counts: one game version and/or one environment; absent ones do not narrow. */
export interface SessionSlice {
  version?: string
  environment?: string
}

/** The environment a session that names none belongs to (the one Sentry's SDKs report by default). */
export const DEFAULT_ENVIRONMENT = 'production'

/** `AND …` terms of a slice, for a table with `game_version` and `environment` columns. */
function sliceTerms(s: SessionSlice): SQL {
  const version = s.version === undefined ? sql`` : sql` AND game_version = ${s.version}`
  if (s.environment === undefined) return version
  // Sessions that name no environment count as production, as an SDK left at its default would say.
  const environments = s.environment === DEFAULT_ENVIRONMENT ? [DEFAULT_ENVIRONMENT, ''] : [s.environment]
  return sql`${version} AND environment IN (${sql.join(
    environments.map((e) => sql`${e}`),
    sql`, `,
  )})`
}

/** The UTC day (YYYY-MM-DD) of a time in ms, in either engine's SQL. */
const utcDay = (q: Query, ms: SQL) =>
  onPostgres(q) ? sql`to_char(timestamp 'epoch' + ${ms} * interval '1 millisecond', 'YYYY-MM-DD')` : sql`strftime('%Y-%m-%d', ${ms} / 1000, 'unixepoch')`

// PostgreSQL answers counts and sums as strings: the rows' numbers are read as numbers on either engine.
const sessionDays = async (q: Query, query: SQL): Promise<SessionDay[]> =>
  (await rowsOf<SessionDay>(q, query)).map((r) => ({ ...r, started: Number(r.started), ended: Number(r.ended), crashed: Number(r.crashed) }))
const eventDays = async (q: Query, query: SQL): Promise<EventDay[]> =>
  (await rowsOf<EventDay>(q, query)).map((r) => ({ ...r, count: Number(r.count), sessions: Number(r.sessions) }))

/**
 * The telemetry reads of analytics (sessions and events per day, raw events, log lines, what the
 * rollups have not counted yet), as async functions over the database seam. Sessions and events are
 * the SDK's tables, the daily rollups and their watermark retention's: read here in raw SQL until
 * those domains offer these reads.
 */
export function createTelemetryRepository({ db }: { db: Seam }) {
  return {
    /** The last day the retention job rolled up (telemetry_daily_*), or null before its first run. */
    rolledThrough: async (rollup: 'events' | 'sessions'): Promise<string | null> =>
      (await db.read((q) => rowsOf<{ through_day: string }>(q, sql`SELECT through_day FROM telemetry_rollup_state WHERE name = ${rollup}`)))[0]?.through_day ?? null,

    /** Sessions per day, version and platform from the daily rollup, days `from` to before `until`. */
    rolledSessionDays: (projectId: string, from: string, until: string, slice: SessionSlice = {}) =>
      db.read((q) =>
        sessionDays(q, sql`SELECT day, game_version, platform, started, ended, crashed FROM telemetry_daily_sessions
        WHERE project_id = ${projectId} AND day >= ${from} AND day < ${until}${sliceTerms(slice)}`),
      ),

    /** Sessions per UTC day of their start, version and platform, started from `fromMs` on (an index range of those days). */
    rawSessionDays: (projectId: string, fromMs: number, slice: SessionSlice = {}) =>
      db.read((q) =>
        sessionDays(q, sql`SELECT ${utcDay(q, sql`started_at`)} AS day, game_version, platform,
      count(*) AS started, count(ended_at) AS ended, coalesce(sum(crashed), 0) AS crashed
    FROM play_sessions WHERE project_id = ${projectId} AND started_at >= ${fromMs}${sliceTerms(slice)}
    GROUP BY 1, game_version, platform`),
      ),

    /** Events per day and name from the retention rollup, days `from` to before `until`. */
    rolledEventDays: (projectId: string, from: string, until: string) =>
      db.read((q) =>
        eventDays(q, sql`SELECT day, event_name AS name, count, sessions FROM telemetry_daily_events
        WHERE project_id = ${projectId} AND day >= ${from} AND day < ${until}`),
      ),

    /** Events per day and name counted by the analytics job, from `from` on. */
    countedEventDays: (projectId: string, from: string) =>
      db.read((q) => eventDays(q, sql`SELECT day, event_name AS name, count, sessions FROM analytics_event_days WHERE project_id = ${projectId} AND day >= ${from}`)),

    /** Events per UTC day and name read from the raw rows stored from `fromMs` (until `untilMs` when given). */
    rawEventDays: (projectId: string, fromMs: number, untilMs: number | null) =>
      db.read((q) =>
        eventDays(q, sql`SELECT ${utcDay(q, sql`e.created_at`)} AS day, n.name AS name,
      count(*) AS count, count(DISTINCT e.session_token) AS sessions
    FROM event_names n JOIN events e ON e.name_id = n.id AND e.created_at >= ${fromMs}${untilMs === null ? sql`` : sql` AND e.created_at < ${untilMs}`}
    WHERE n.project_id = ${projectId} GROUP BY n.id, n.name, 1`),
      ),

    /** How many distinct log lines the project has from day `from` on. */
    logLineCount: async (projectId: string, from: string): Promise<number> =>
      (await db.read((q) => q.select({ n: sql<number>`count(DISTINCT ${analyticsLogLines.line})`.mapWith(Number) }).from(analyticsLogLines).where(and(eq(analyticsLogLines.projectId, projectId), gte(analyticsLogLines.day, from)))))[0]!.n,

    /** One page of the project's log lines from day `from` on, by the reports that logged them, with when each was last seen (ms). */
    logLines: (projectId: string, from: string, limit: number, offset: number) => {
      const reportsCol = sql<number>`sum(${analyticsLogLines.count})`.mapWith(Number)
      return db.read((q) =>
        q
          .select({ line: analyticsLogLines.line, reports: reportsCol, lastSeen: sql<number>`max(${analyticsLogLines.lastSeen})`.mapWith(Number) })
          .from(analyticsLogLines)
          .where(and(eq(analyticsLogLines.projectId, projectId), gte(analyticsLogLines.day, from)))
          .groupBy(analyticsLogLines.line)
          .orderBy(desc(reportsCol), analyticsLogLines.line)
          .limit(limit)
          .offset(offset),
      )
    },

    /** When the oldest occurrence and the oldest session the rollups have not counted yet were stored (ms; null each when none is left). */
    oldestPending: () =>
      // Two lookups on primary keys: the cursor, then the first row after it.
      db.read(async (q) =>
        (await rowsOf<{ at: number | null }>(q, sql`
    SELECT (SELECT created_at FROM report_occurrences
      WHERE seq > coalesce((SELECT position FROM rollup_cursors WHERE name = ${OCCURRENCES_CURSOR}), 0) ORDER BY seq LIMIT 1) AS at
    UNION ALL
    SELECT (SELECT started_at FROM play_sessions
      WHERE rowid > coalesce((SELECT position FROM rollup_cursors WHERE name = ${SESSIONS_CURSOR}), 0) ORDER BY rowid LIMIT 1)`)).map((r) => ({ at: r.at === null ? null : Number(r.at) })),
      ),
  }
}
