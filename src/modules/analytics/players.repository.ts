import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm'
import { onPostgres, rowsOf, type Seam } from '../../db/client'
import { containsText, unindexed } from '../../db/portable-sql'
import { DAY } from '../../lib/clock'
import { reports } from '../reports/reports.table'
import { players, playSessions } from '../sdk/sdk.table'
import { analyticsPlayerNotes, analyticsPlayerReports } from './analytics.table'

export type Player = typeof players.$inferSelect
export type PlayerNotes = typeof analyticsPlayerNotes.$inferSelect
type Sentiment = PlayerNotes['sentiment']

const playerOf = (projectId: string, playerId: string) => and(eq(players.projectId, projectId), eq(players.playerId, playerId))
const numberOrNull = (v: number | null) => (v === null ? null : Number(v))
const notesOf = (projectId: string, playerId: string) => and(eq(analyticsPlayerNotes.projectId, projectId), eq(analyticsPlayerNotes.playerId, playerId))

/**
 * Every read and write of the players' analytics (the team's notes, the reports each player filed)
 * and the player reads behind them, as async functions over the database seam. Players and sessions
 * are the SDK's tables and reports the reports domain's: they are joined here until those domains
 * offer these reads.
 */
export function createPlayersRepository({ db }: { db: Seam }) {
  return {
    /** How many players of the project match `q` (the id or name anywhere, case-insensitive), and one page of them with the team's notes, by id. */
    page: (projectId: string, o: { q?: string; limit: number; offset: number }) => {
      return db.read(async (q) => {
        const where = and(eq(players.projectId, projectId), o.q ? or(containsText(q, players.playerId, o.q), containsText(q, players.name, o.q)) : undefined)
        const [total] = await q.select({ n: count() }).from(players).where(where)
        const rows = await q
          .select({ p: players, notes: analyticsPlayerNotes.notes, sentiment: analyticsPlayerNotes.sentiment })
          .from(players)
          .leftJoin(analyticsPlayerNotes, and(eq(analyticsPlayerNotes.projectId, players.projectId), eq(analyticsPlayerNotes.playerId, players.playerId)))
          .where(where)
          .orderBy(players.playerId)
          .limit(o.limit)
          .offset(o.offset)
        return { total: total!.n, rows }
      })
    },

    /** One player of the project, or undefined. */
    find: async (projectId: string, playerId: string): Promise<Player | undefined> => (await db.read((q) => q.select().from(players).where(playerOf(projectId, playerId)).limit(1)))[0],

    /** The team's notes about a player, or undefined. */
    notes: async (projectId: string, playerId: string): Promise<PlayerNotes | undefined> => (await db.read((q) => q.select().from(analyticsPlayerNotes).where(notesOf(projectId, playerId)).limit(1)))[0],

    /** Sets the team's notes and sentiment about a player (the fields given; a new row takes '' and null for the others). */
    saveNotes: (projectId: string, playerId: string, changes: { notes?: string; sentiment?: Sentiment }, now: Date) =>
      db.write(async (q) => {
        const set = { ...(changes.notes !== undefined && { notes: changes.notes }), ...(changes.sentiment !== undefined && { sentiment: changes.sentiment }), updatedAt: now }
        await q
          .insert(analyticsPlayerNotes)
          .values({ projectId, playerId, notes: changes.notes ?? '', sentiment: changes.sentiment ?? null, updatedAt: now })
          .onConflictDoUpdate({ target: [analyticsPlayerNotes.projectId, analyticsPlayerNotes.playerId], set })
      }),

    /** A player's stored sessions: ended, crashed and seconds played. */
    sessionTotals: async (projectId: string, playerId: string) =>
      (
        await db.read((q) =>
          q
            .select({ ended: count(playSessions.endedAt), crashed: sql<number>`coalesce(sum(${playSessions.crashed}), 0)`.mapWith(Number), seconds: sql<number>`coalesce(sum(${playSessions.durationSec}), 0)`.mapWith(Number) })
            .from(playSessions)
            .where(and(eq(playSessions.projectId, projectId), eq(playSessions.playerId, playerId))),
        )
      )[0]!,

    /** How many reports a player filed. */
    reportCount: async (projectId: string, playerId: string): Promise<number> =>
      (await db.read((q) => q.select({ n: count() }).from(analyticsPlayerReports).where(and(eq(analyticsPlayerReports.projectId, projectId), eq(analyticsPlayerReports.playerId, playerId)))))[0]!.n,

    /** One page of a player's stored sessions, newest first. */
    sessions: (projectId: string, playerId: string, limit: number, offset: number) =>
      db.read((q) =>
        q
          .select()
          .from(playSessions)
          .where(and(eq(playSessions.projectId, projectId), eq(playSessions.playerId, playerId)))
          .orderBy(desc(playSessions.startedAt))
          .limit(limit)
          .offset(offset),
      ),

    /** One page of the live reports a player filed, newest first. */
    reports: (projectId: string, playerId: string, limit: number, offset: number) =>
      db.read((q) =>
        q
          .select({ number: reports.reportNumber, title: reports.title, status: reports.status, priority: reports.priority, category: reports.category, gameVersion: reports.gameVersion, sentiment: reports.sentimentLevel, createdAt: reports.createdAt })
          .from(analyticsPlayerReports)
          .innerJoin(reports, eq(reports.seq, analyticsPlayerReports.reportSeq))
          .where(and(eq(analyticsPlayerReports.projectId, projectId), eq(analyticsPlayerReports.playerId, playerId), isNull(reports.deletedAt)))
          .orderBy(desc(analyticsPlayerReports.reportSeq))
          .limit(limit)
          .offset(offset),
      ),

    /** The project's players, those seen since each of `since` (ms), the players who filed a report and the team's sentiment mix. */
    overview: (projectId: string, since: { days7: number; days30: number }) =>
      db.read(async (q) => {
        const seen = (t: number) => sql<number>`coalesce(sum(CASE WHEN ${players.lastSeen} >= ${t} THEN 1 ELSE 0 END), 0)`.mapWith(Number)
        const [p] = await q.select({ total: count(), active7: seen(since.days7), active30: seen(since.days30) }).from(players).where(eq(players.projectId, projectId))
        const [reporting] = await q.select({ n: sql<number>`count(DISTINCT ${analyticsPlayerReports.playerId})`.mapWith(Number) }).from(analyticsPlayerReports).where(eq(analyticsPlayerReports.projectId, projectId))
        const mix = await q.select({ sentiment: analyticsPlayerNotes.sentiment, n: count() }).from(analyticsPlayerNotes).where(eq(analyticsPlayerNotes.projectId, projectId)).groupBy(analyticsPlayerNotes.sentiment)
        return { ...p!, reporting: reporting!.n, mix }
      }),

    /**
     * The three churn-risk signals at `now` (ms): players with a crashed session among those started in
     * the last 7 days; players with negative reports of the last 30 days (among the project's `window`
     * newest) without a public comment; players last seen 7 to 30 days ago whose last session crashed
     * (the `limit` most recently seen). Raw SQL across sessions, players, reports and comments, each
     * shaped for the planner.
     */
    churnSignals: (projectId: string, now: number, window: number, limit: number) =>
      db.read(async (q) => {
        // Grouped in a subquery over the (project, started_at) range: on its own the planner walked the
        // (project, player) index through every session to skip the GROUP BY sort.
        const crashed = await rowsOf<{ player_id: string; name: string | null; last_seen: number | null; sessions: number; crashed: number }>(q, sql`
    SELECT s.player_id, p.name, p.last_seen, s.sessions, s.crashed FROM
      (SELECT player_id, count(*) AS sessions, sum(crashed) AS crashed FROM play_sessions
       WHERE project_id = ${projectId} AND started_at >= ${now - 7 * DAY} AND ${unindexed(q, sql.raw('player_id'))} IS NOT NULL GROUP BY ${unindexed(q, sql.raw('player_id'))} HAVING sum(crashed) > 0) s
    LEFT JOIN players p ON p.project_id = ${projectId} AND p.player_id = s.player_id`)
        const negative = await rowsOf<{ player_id: string; name: string | null; last_seen: number | null; n: number; numbers: string }>(q, sql`
    SELECT r.player_id, p.name, p.last_seen, count(*) AS n, ${onPostgres(q) ? sql`string_agg(CAST(r.report_number AS text), ',')` : sql`group_concat(r.report_number)`} AS numbers
    FROM (SELECT * FROM reports WHERE project_id = ${projectId} AND deleted_at IS NULL ORDER BY seq DESC LIMIT ${window}) r
    LEFT JOIN players p ON p.project_id = r.project_id AND p.player_id = r.player_id
    WHERE r.player_id IS NOT NULL AND r.sentiment_level = 'negative' AND r.created_at >= ${now - 30 * DAY}
      AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.report_id = r.id AND c.is_internal = 0)
    GROUP BY r.player_id, p.name, p.last_seen`)
        // A player's last_seen is the start of their newest session: that one session is found by the
        // (project, started_at) index, one probe per player, most recently seen first until `limit` are found.
        const stopped = await rowsOf<{ player_id: string; name: string | null; last_seen: number }>(q, sql`
    SELECT p.player_id, p.name, p.last_seen FROM
      (SELECT project_id, player_id, name, last_seen FROM players
       WHERE project_id = ${projectId} AND last_seen >= ${now - 30 * DAY} AND last_seen < ${now - 7 * DAY} ORDER BY last_seen DESC LIMIT 1000000000) p
    WHERE EXISTS (SELECT 1 FROM play_sessions s WHERE s.project_id = p.project_id AND s.started_at = p.last_seen AND s.player_id = p.player_id AND s.crashed = 1)
    LIMIT ${limit}`)
        // PostgreSQL answers raw int8 values and counts as strings.
        return {
          crashed: crashed.map((r) => ({ ...r, last_seen: numberOrNull(r.last_seen), sessions: Number(r.sessions), crashed: Number(r.crashed) })),
          negative: negative.map((r) => ({ ...r, last_seen: numberOrNull(r.last_seen), n: Number(r.n) })),
          stopped: stopped.map((r) => ({ ...r, last_seen: Number(r.last_seen) })),
        }
      }),
  }
}
