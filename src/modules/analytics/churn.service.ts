import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { DAY } from '../../lib/clock'

/** Newest reports read for negative unanswered ones; players listed at most. */
const REPORT_WINDOW = 5_000
const LIMIT = 100

type Risk = { player_id: string; name: string | null; last_seen: string | null; reasons: string[] }

/**
 * `/churn-risk`: players with at least one reason, most reasons first, then most recently seen:
 * a crashed session among those started in the last 7 days; a negative report of the last 30 days
 * (among the project's 5,000 newest) with no public comment; or a last session that crashed and no
 * session since, last seen 7 to 30 days ago (the 100 most recently seen of those).
 */
export function churnRisk(db: DbOrTx, projectId: string, now: Date) {
  const t = now.getTime()
  // Grouped in a subquery over the (project, started_at) range: on its own the planner walked the
  // (project, player) index through every session to skip the GROUP BY sort.
  const crashed = db.all<{ player_id: string; name: string | null; last_seen: number | null; sessions: number; crashed: number }>(sql`
    SELECT s.player_id, p.name, p.last_seen, s.sessions, s.crashed FROM
      (SELECT player_id, count(*) AS sessions, sum(crashed) AS crashed FROM play_sessions
       WHERE project_id = ${projectId} AND started_at >= ${t - 7 * DAY} AND +player_id IS NOT NULL GROUP BY +player_id HAVING sum(crashed) > 0) s
    LEFT JOIN players p ON p.project_id = ${projectId} AND p.player_id = s.player_id`)
  const negative = db.all<{ player_id: string; name: string | null; last_seen: number | null; n: number; numbers: string }>(sql`
    SELECT r.player_id, p.name, p.last_seen, count(*) AS n, group_concat(r.report_number) AS numbers
    FROM (SELECT * FROM reports WHERE project_id = ${projectId} AND deleted_at IS NULL ORDER BY seq DESC LIMIT ${REPORT_WINDOW}) r
    LEFT JOIN players p ON p.project_id = r.project_id AND p.player_id = r.player_id
    WHERE r.player_id IS NOT NULL AND r.sentiment_level = 'negative' AND r.created_at >= ${t - 30 * DAY}
      AND NOT EXISTS (SELECT 1 FROM comments c WHERE c.report_id = r.id AND c.is_internal = 0)
    GROUP BY r.player_id`)
  // A player's last_seen is the start of their newest session: that one session is found by the
  // (project, started_at) index, one probe per player, most recently seen first until 100 are found.
  const stopped = db.all<{ player_id: string; name: string | null; last_seen: number }>(sql`
    SELECT p.player_id, p.name, p.last_seen FROM
      (SELECT project_id, player_id, name, last_seen FROM players
       WHERE project_id = ${projectId} AND last_seen >= ${t - 30 * DAY} AND last_seen < ${t - 7 * DAY} ORDER BY last_seen DESC LIMIT 1000000000) p
    WHERE EXISTS (SELECT 1 FROM play_sessions s WHERE s.project_id = p.project_id AND s.started_at = p.last_seen AND s.player_id = p.player_id AND s.crashed = 1)
    LIMIT ${LIMIT}`)
  const risks = new Map<string, Risk>()
  const add = (r: { player_id: string; name: string | null; last_seen: number | null }, reason: string) => {
    const risk = risks.get(r.player_id) ?? { player_id: r.player_id, name: r.name, last_seen: r.last_seen === null ? null : new Date(r.last_seen).toISOString(), reasons: [] }
    risk.reasons.push(reason)
    risks.set(r.player_id, risk)
  }
  for (const r of crashed) add(r, `${r.crashed} of their ${r.sessions} sessions in the last 7 days crashed`)
  for (const r of negative) add(r, `${r.n} negative report${r.n === 1 ? '' : 's'} in the last 30 days without a public reply (#${r.numbers.split(',').sort((a, b) => Number(a) - Number(b)).join(', #')})`)
  for (const r of stopped) add(r, `their last session crashed and they have not played for ${Math.floor((t - r.last_seen) / DAY)} days`)
  const players = [...risks.values()].sort((a, b) => b.reasons.length - a.reasons.length || (b.last_seen ?? '').localeCompare(a.last_seen ?? '') || a.player_id.localeCompare(b.player_id))
  return { total: players.length, players: players.slice(0, LIMIT) }
}
