import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { createPlayersRepository, type Player } from './players.repository'

export const PAGE_SIZE = 25

function playerView(p: Player, n?: { notes: string; sentiment: string | null } | null) {
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
export async function listPlayers(db: Seam, projectId: string, o: { page: number; q?: string }) {
  const { total, rows } = await createPlayersRepository({ db }).page(projectId, { q: o.q, limit: PAGE_SIZE, offset: (o.page - 1) * PAGE_SIZE })
  return { players: rows.map((r) => playerView(r.p, r.notes === null ? null : { notes: r.notes, sentiment: r.sentiment })), page: o.page, per_page: PAGE_SIZE, total }
}

async function findPlayer(db: Seam, projectId: string, playerId: string) {
  const p = await createPlayersRepository({ db }).find(projectId, playerId)
  if (!p) throw notFound('player not found')
  return p
}

/** `/players/{playerId}`: the player, the team's notes, and their session and report totals. */
export async function readPlayer(db: Seam, projectId: string, playerId: string) {
  const repo = createPlayersRepository({ db })
  const p = await findPlayer(db, projectId, playerId)
  const n = await repo.notes(projectId, playerId)
  const s = await repo.sessionTotals(projectId, playerId)
  const reports = await repo.reportCount(projectId, playerId)
  return { ...playerView(p, n), stored_sessions: { ended: s.ended, crashed: s.crashed, play_seconds: s.seconds }, reports }
}

/** `PATCH /players/{playerId}`: the team's notes and sentiment (null clears it). */
export async function updatePlayer(deps: Pick<AppDeps, 'db' | 'clock'>, projectId: string, playerId: string, body: { notes?: string; sentiment?: 'positive' | 'neutral' | 'negative' | null }) {
  await deps.db.write(async () => {
    await findPlayer(deps.db, projectId, playerId)
    await createPlayersRepository({ db: deps.db }).saveNotes(projectId, playerId, body, deps.clock.now())
  })
  return readPlayer(deps.db, projectId, playerId)
}

/** `/players/{playerId}/sessions`: their stored sessions, newest first, 25 a page. */
export async function playerSessions(db: Seam, projectId: string, playerId: string, page: number) {
  await findPlayer(db, projectId, playerId)
  const rows = await createPlayersRepository({ db }).sessions(projectId, playerId, PAGE_SIZE, (page - 1) * PAGE_SIZE)
  return {
    page,
    per_page: PAGE_SIZE,
    sessions: rows.map((s) => ({ id: s.id, session_token: s.token, platform: s.platform, game_version: s.gameVersion, device_info: s.deviceInfo, os_info: s.osInfo, started_at: s.startedAt.toISOString(), ended_at: s.endedAt?.toISOString() ?? null, duration_sec: s.durationSec, crashed: s.crashed })),
  }
}

/** `/players/{playerId}/bugs`: the live reports they filed, newest first, 25 a page. */
export async function playerReports(db: Seam, projectId: string, playerId: string, page: number) {
  await findPlayer(db, projectId, playerId)
  const rows = await createPlayersRepository({ db }).reports(projectId, playerId, PAGE_SIZE, (page - 1) * PAGE_SIZE)
  return { page, per_page: PAGE_SIZE, bugs: rows.map((r) => ({ report_number: r.number, title: r.title, status: r.status, priority: r.priority, category: r.category, game_version: r.gameVersion, sentiment_level: r.sentiment, created_at: r.createdAt.toISOString() })) }
}

/** `/customers/overview`: players, those seen in the last 7 and 30 days, those who filed a report, and the team's sentiment mix. */
export async function customersOverview(db: Seam, projectId: string, now: Date) {
  const p = await createPlayersRepository({ db }).overview(projectId, { days7: now.getTime() - 7 * DAY, days30: now.getTime() - 30 * DAY })
  const of = (s: string) => p.mix.find((m) => m.sentiment === s)?.n ?? 0
  const rated = of('positive') + of('neutral') + of('negative')
  return { players: p.total, active_7_days: p.active7, active_30_days: p.active30, reporting_players: p.reporting, sentiment: { positive: of('positive'), neutral: of('neutral'), negative: of('negative'), unrated: p.total - rated } }
}
