import { and, count, desc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { larger, smaller, unindexed } from '../../db/portable-sql'
import { chunks } from '../../lib/chunks'
import { eventNames, events, perfSnapshots, players, playSessions, sessionReplays } from './sdk.table'

const p = sql.placeholder

export type PlaySession = typeof playSessions.$inferSelect
export type PerfSnapshot = typeof perfSnapshots.$inferSelect
type NewSession = Required<Pick<typeof playSessions.$inferInsert, 'id' | 'projectId' | 'token' | 'playerId' | 'playerName' | 'platform' | 'gameVersion' | 'deviceInfo' | 'osInfo' | 'environment' | 'startedAt'>>
/** A performance sample as stored: `customMetrics` is JSON text (or null). */
export type NewPerfSnapshot = Omit<typeof perfSnapshots.$inferInsert, 'customMetrics' | 'createdAt'> & { customMetrics: string | null; createdAt: Date }
/** A telemetry event row: its name's dictionary id, the time in ms, and what the client sent. */
export type NewEvent = typeof events.$inferInsert

/** Aggregated sessions inserted per statement (11 bound values each, far under SQLite's limit). */
const SESSION_CHUNK = 500

/** The statements of the SDK's frequent calls (sessions, performance samples), prepared once per connection. */
function prepare(q: Query) {
  return {
    insertSession: q
      .insert(playSessions)
      .values({
        id: p('id'),
        projectId: p('projectId'),
        token: p('token'),
        playerId: p('playerId'),
        playerName: p('playerName'),
        platform: p('platform'),
        gameVersion: p('gameVersion'),
        deviceInfo: p('deviceInfo'),
        osInfo: p('osInfo'),
        environment: p('environment'),
        startedAt: p('startedAt'),
      })
      .onConflictDoNothing()
      .returning({ id: playSessions.id })
      .prepare(),
    countPlayer: q
      .insert(players)
      .values({ projectId: p('projectId'), playerId: p('playerId'), name: p('name'), firstSeen: p('at'), lastSeen: p('at'), sessionCount: 1 })
      .onConflictDoUpdate({
        target: [players.projectId, players.playerId],
        set: { name: sql`coalesce(excluded.name, ${players.name})`, lastSeen: sql`CASE WHEN excluded.last_seen > ${players.lastSeen} THEN excluded.last_seen ELSE ${players.lastSeen} END`, sessionCount: sql`${players.sessionCount} + 1` },
      })
      .prepare(),
    // A player who files reports but never starts a session still has a player page (session_count 0).
    reportingPlayer: q
      .insert(players)
      .values({ projectId: p('projectId'), playerId: p('playerId'), firstSeen: p('at'), lastSeen: p('at'), sessionCount: 0 })
      .onConflictDoUpdate({
        target: [players.projectId, players.playerId],
        set: { firstSeen: smaller(players.firstSeen, sql`excluded.first_seen`), lastSeen: larger(players.lastSeen, sql`excluded.last_seen`) },
      })
      .prepare(),
    byToken: q
      .select()
      .from(playSessions)
      .where(and(eq(playSessions.projectId, p('projectId')), eq(playSessions.token, p('token'))))
      .prepare(),
    perf: q
      .insert(perfSnapshots)
      .values({
        id: p('id'),
        projectId: p('projectId'),
        reportId: p('reportId'),
        fps: p('fps'),
        frameTimeMs: p('frameTimeMs'),
        memoryUsedMb: p('memoryUsedMb'),
        memoryTotalMb: p('memoryTotalMb'),
        drawCalls: p('drawCalls'),
        triangles: p('triangles'),
        cpuUsage: p('cpuUsage'),
        gpuUsage: p('gpuUsage'),
        loadTimeSec: p('loadTimeSec'),
        networkLatencyMs: p('networkLatencyMs'),
        // Bound as text (not through the JSON column's encoder, which would store SQL NULL as 'null').
        customMetrics: sql`${p('customMetrics')}`,
        createdAt: p('createdAt'),
      })
      .prepare(),
  }
}

const statementsOf = preparedPerConnection(prepare)

/** Every read and write of the SDK's tables (play sessions, players, telemetry events, performance samples, session replays), as async functions over the database seam. */
export function createSdkRepository({ db }: { db: Seam }) {
  return {
    /** Starts a play session; false when the project has one under that token already. */
    insertSession: (s: NewSession) => db.write(async (q) => (await statementsOf(q).insertSession.execute(s)).length > 0),

    /** Ended sessions as they are (aggregate counts of a server-mode Sentry SDK), in as few statements as their number allows. */
    insertEndedSessions: (rows: (typeof playSessions.$inferInsert)[]) =>
      db.write(async (q) => {
        for (let i = 0; i < rows.length; i += SESSION_CHUNK) await q.insert(playSessions).values(rows.slice(i, i + SESSION_CHUNK))
      }),

    /** A session of the player started at `at`: their first and last seen, session count and name (a name sent replaces the one kept). */
    countPlayer: (player: { projectId: string; playerId: string; name: string | null; at: Date }) =>
      db.write(async (q) => {
        await statementsOf(q).countPlayer.execute(player)
      }),

    /** The project's session under this token (one at most: the token is unique in the project), or undefined. */
    sessionByToken: async (projectId: string, token: string): Promise<PlaySession | undefined> =>
      (await db.read((q) => statementsOf(q).byToken.execute({ projectId, token })))[0],

    /** Ends a session that is still running (an ended one keeps its end). */
    endSession: (where: { projectId: string; token: string }, end: { endedAt: Date; crashed: boolean; durationSec: number | null }) =>
      db.write((q) =>
        q
          .update(playSessions)
          .set(end)
          .where(and(eq(playSessions.projectId, where.projectId), eq(playSessions.token, where.token), isNull(playSessions.endedAt))),
      ),

    /** The dictionary ids of these event names in the project (names it has not seen are missing). */
    eventNameIds: async (projectId: string, names: string[]): Promise<Map<string, number>> => {
      const rows = await db.read((q) => q.select({ id: eventNames.id, name: eventNames.name }).from(eventNames).where(and(eq(eventNames.projectId, projectId), inArray(eventNames.name, names))))
      return new Map(rows.map((r) => [r.name, r.id]))
    },

    /** Adds event names to the project's dictionary; their new ids. */
    insertEventNames: async (projectId: string, names: string[]): Promise<Map<string, number>> => {
      if (names.length === 0) return new Map()
      const rows = await db.write((q) => q.insert(eventNames).values(names.map((name) => ({ projectId, name }))).returning({ id: eventNames.id, name: eventNames.name }))
      return new Map(rows.map((r) => [r.name, r.id]))
    },

    /** A batch of telemetry events, in one statement. */
    insertEvents: (rows: NewEvent[]) => db.write((q) => q.insert(events).values(rows)),

    insertPerfSnapshot: (row: NewPerfSnapshot) =>
      db.write(async (q) => {
        await statementsOf(q).perf.execute(row)
      }),

    insertReplay: (row: typeof sessionReplays.$inferInsert) => db.write((q) => q.insert(sessionReplays).values(row)),

    /** Moves the performance samples and replays of the `from` reports to report `to` (merge). */
    moveToReport: (fromIds: string[], to: string) =>
      db.write(async (q) => {
        await q.update(perfSnapshots).set({ reportId: to }).where(inArray(perfSnapshots.reportId, fromIds))
        await q.update(sessionReplays).set({ reportId: to }).where(inArray(sessionReplays.reportId, fromIds))
      }),

    /** Whether the project has a session from a Sentry SDK (stored under `sentry-…` tokens: sentry/sessions.service.ts). */
    hasSentrySession: async (projectId: string): Promise<boolean> =>
      (
        await db.read((q) =>
          q
            .select({ id: playSessions.id })
            .from(playSessions)
            .where(and(eq(playSessions.projectId, projectId), gte(playSessions.token, 'sentry-'), lt(playSessions.token, 'sentry.')))
            .limit(1),
        )
      ).length > 0,

    /** Sessions of the project started since `since`, ended or still running, and how many of them crashed. */
    sessionsAndCrashedSince: async (projectId: string, since: Date): Promise<{ sessions: number; crashed: number }> => {
      const [s] = await db.read((q) =>
        q
          .select({ sessions: sql<number>`count(*)`.mapWith(Number), crashed: sql<number>`coalesce(sum(CASE WHEN ${playSessions.crashed} = 1 THEN 1 ELSE 0 END), 0)`.mapWith(Number) })
          .from(playSessions)
          .where(and(eq(playSessions.projectId, projectId), gte(playSessions.startedAt, since))),
      )
      return { sessions: Number(s?.sessions ?? 0), crashed: Number(s?.crashed ?? 0) }
    },

    /** The stored file keys of the session replays of the `reportIds` reports (a project's deletion). */
    replayKeysOf: async (reportIds: string[]): Promise<string[]> => {
      const keys: string[] = []
      for (const ids of chunks(reportIds)) keys.push(...(await db.read((q) => q.select({ key: sessionReplays.fileKey }).from(sessionReplays).where(inArray(sessionReplays.reportId, ids)))).map((r) => r.key))
      return keys
    },

    /** How many performance snapshots and session replays the game sent with the report. */
    telemetryCountsOf: async (reportId: string): Promise<{ perf: number; replays: number }> => {
      const [[perf], [replays]] = await Promise.all([
        db.read((q) => q.select({ n: count() }).from(perfSnapshots).where(eq(perfSnapshots.reportId, reportId))),
        db.read((q) => q.select({ n: count() }).from(sessionReplays).where(eq(sessionReplays.reportId, reportId))),
      ])
      return { perf: perf?.n ?? 0, replays: replays?.n ?? 0 }
    },

    /** A report's performance snapshots, newest first. */
    reportSnapshots: (reportId: string) => db.read((q) => q.select().from(perfSnapshots).where(eq(perfSnapshots.reportId, reportId)).orderBy(desc(perfSnapshots.createdAt))),

    /** The project's newest `limit` snapshots without a report (scene loads). */
    sceneLoadSnapshots: (projectId: string, limit: number) =>
      // `+report_id`: newest first along the (project, created_at) index, not every report-less row by the report index.
      db.read((q) => q.select().from(perfSnapshots).where(and(eq(perfSnapshots.projectId, projectId), sql`${unindexed(q, perfSnapshots.reportId)} IS NULL`)).orderBy(desc(perfSnapshots.createdAt)).limit(limit)),

    /** A report's session replays, oldest first. */
    reportReplays: (reportId: string) => db.read((q) => q.select().from(sessionReplays).where(eq(sessionReplays.reportId, reportId)).orderBy(sessionReplays.createdAt)),

    /** The newest `limit` raw events of a name stored from `sinceMs` on. */
    newestEvents: (nameId: number, sinceMs: number, limit: number) =>
      db.read((q) => q.select().from(events).where(and(eq(events.nameId, nameId), gte(events.createdAt, sinceMs))).orderBy(desc(events.createdAt), desc(events.id)).limit(limit)),

    /** A player seen filing a report at `at`: a player page even without a session (first and last seen widen, session count stays). */
    seeReportingPlayer: (player: { projectId: string; playerId: string; at: Date }) =>
      db.write(async (q) => {
        await statementsOf(q).reportingPlayer.execute(player)
      }),
  }
}

export type SdkRepository = ReturnType<typeof createSdkRepository>
