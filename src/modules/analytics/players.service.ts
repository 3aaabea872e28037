import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { reports } from '../reports/reports.table'
import { players, playSessions } from '../sdk/sdk.table'
import { analyticsPlayerNotes, analyticsPlayerReports } from './analytics.table'

export const PAGE_SIZE = 25

const likeText = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function playerView(p: typeof players.$inferSelect, n?: { notes: string; sentiment: string | null } | null) {
  return {
    player_id: p.playerId,
    name: p.name,
    first_seen: p.firstSeen.toISOString(),
    last_seen: p.lastSeen.toISOString(),
    session_count: p.sessionCount,
    notes: n?.notes ?? '',
    sentiment: n?.sentiment ?? null,
  }
}

/** `/players`: the project's players by id, 25 a page; `q` matches the id or name anywhere (case-insensitive). */
export function listPlayers(db: DbOrTx, projectId: string, o: { page: number; q?: string }) {
  const where = and(eq(players.projectId, projectId), o.q ? or(sql`${players.playerId} LIKE ${likeText(o.q)} ESCAPE '\\'`, sql`${players.name} LIKE ${likeText(o.q)} ESCAPE '\\'`) : undefined)
  const total = db.select({ n: count() }).from(players).where(where).get()!.n
  const rows = db
    .select({ p: players, notes: analyticsPlayerNotes.notes, sentiment: analyticsPlayerNotes.sentiment })
    .from(players)
    .leftJoin(analyticsPlayerNotes, and(eq(analyticsPlayerNotes.projectId, players.projectId), eq(analyticsPlayerNotes.playerId, players.playerId)))
    .where(where)
    .orderBy(players.playerId)
    .limit(PAGE_SIZE)
    .offset((o.page - 1) * PAGE_SIZE)
    .all()
  return { players: rows.map((r) => playerView(r.p, r.notes === null ? null : { notes: r.notes, sentiment: r.sentiment })), page: o.page, per_page: PAGE_SIZE, total }
}

function findPlayer(db: DbOrTx, projectId: string, playerId: string) {
  const p = db.select().from(players).where(and(eq(players.projectId, projectId), eq(players.playerId, playerId))).get()
  if (!p) throw notFound('player not found')
  return p
}

/** `/players/{playerId}`: the player, the team's notes, and their session and report totals. */
export function readPlayer(db: DbOrTx, projectId: string, playerId: string) {
  const p = findPlayer(db, projectId, playerId)
  const n = db.select().from(analyticsPlayerNotes).where(and(eq(analyticsPlayerNotes.projectId, projectId), eq(analyticsPlayerNotes.playerId, playerId))).get()
  const s = db
    .select({ ended: count(playSessions.endedAt), crashed: sql<number>`coalesce(sum(${playSessions.crashed}), 0)`, seconds: sql<number>`coalesce(sum(${playSessions.durationSec}), 0)` })
    .from(playSessions)
    .where(and(eq(playSessions.projectId, projectId), eq(playSessions.playerId, playerId)))
    .get()!
  const r = db.select({ n: count() }).from(analyticsPlayerReports).where(and(eq(analyticsPlayerReports.projectId, projectId), eq(analyticsPlayerReports.playerId, playerId))).get()!
  return { ...playerView(p, n), stored_sessions: { ended: s.ended, crashed: s.crashed, play_seconds: s.seconds }, reports: r.n }
}

/** `PATCH /players/{playerId}`: the team's notes and sentiment (null clears it). */
export function updatePlayer(deps: Pick<AppDeps, 'db' | 'clock'>, projectId: string, playerId: string, body: { notes?: string; sentiment?: 'positive' | 'neutral' | 'negative' | null }) {
  deps.db.transaction((tx) => {
    findPlayer(tx, projectId, playerId)
    const now = deps.clock.now()
    const set = { ...(body.notes !== undefined && { notes: body.notes }), ...(body.sentiment !== undefined && { sentiment: body.sentiment }), updatedAt: now }
    tx.insert(analyticsPlayerNotes)
      .values({ projectId, playerId, notes: body.notes ?? '', sentiment: body.sentiment ?? null, updatedAt: now })
      .onConflictDoUpdate({ target: [analyticsPlayerNotes.projectId, analyticsPlayerNotes.playerId], set })
      .run()
  })
  return readPlayer(deps.db, projectId, playerId)
}

/** `/players/{playerId}/sessions`: their stored sessions, newest first, 25 a page. */
export function playerSessions(db: DbOrTx, projectId: string, playerId: string, page: number) {
  findPlayer(db, projectId, playerId)
  const rows = db
    .select()
    .from(playSessions)
    .where(and(eq(playSessions.projectId, projectId), eq(playSessions.playerId, playerId)))
    .orderBy(desc(playSessions.startedAt))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .all()
  return {
    page,
    per_page: PAGE_SIZE,
    sessions: rows.map((s) => ({ id: s.id, session_token: s.token, platform: s.platform, game_version: s.gameVersion, device_info: s.deviceInfo, os_info: s.osInfo, started_at: s.startedAt.toISOString(), ended_at: s.endedAt?.toISOString() ?? null, duration_sec: s.durationSec, crashed: s.crashed })),
  }
}

/** `/players/{playerId}/bugs`: the live reports they filed, newest first, 25 a page. */
export function playerReports(db: DbOrTx, projectId: string, playerId: string, page: number) {
  findPlayer(db, projectId, playerId)
  const rows = db
    .select({ number: reports.reportNumber, title: reports.title, status: reports.status, priority: reports.priority, category: reports.category, gameVersion: reports.gameVersion, sentiment: reports.sentimentLevel, createdAt: reports.createdAt })
    .from(analyticsPlayerReports)
    .innerJoin(reports, eq(reports.seq, analyticsPlayerReports.reportSeq))
    .where(and(eq(analyticsPlayerReports.projectId, projectId), eq(analyticsPlayerReports.playerId, playerId), isNull(reports.deletedAt)))
    .orderBy(desc(analyticsPlayerReports.reportSeq))
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .all()
  return { page, per_page: PAGE_SIZE, bugs: rows.map((r) => ({ report_number: r.number, title: r.title, status: r.status, priority: r.priority, category: r.category, game_version: r.gameVersion, sentiment_level: r.sentiment, created_at: r.createdAt.toISOString() })) }
}

/** `/customers/overview`: players, those seen in the last 7 and 30 days, those who filed a report, and the team's sentiment mix. */
export function customersOverview(db: DbOrTx, projectId: string, now: Date) {
  const since = (days: number) => sql<number>`coalesce(sum(${players.lastSeen} >= ${now.getTime() - days * DAY}), 0)`
  const p = db.select({ total: count(), active7: since(7), active30: since(30) }).from(players).where(eq(players.projectId, projectId)).get()!
  const reporting = db.select({ n: sql<number>`count(DISTINCT ${analyticsPlayerReports.playerId})` }).from(analyticsPlayerReports).where(eq(analyticsPlayerReports.projectId, projectId)).get()!.n
  const mix = db.select({ sentiment: analyticsPlayerNotes.sentiment, n: count() }).from(analyticsPlayerNotes).where(eq(analyticsPlayerNotes.projectId, projectId)).groupBy(analyticsPlayerNotes.sentiment).all()
  const of = (s: string) => mix.find((m) => m.sentiment === s)?.n ?? 0
  const rated = of('positive') + of('neutral') + of('negative')
  return { players: p.total, active_7_days: p.active7, active_30_days: p.active30, reporting_players: reporting, sentiment: { positive: of('positive'), neutral: of('neutral'), negative: of('negative'), unrated: p.total - rated } }
}

