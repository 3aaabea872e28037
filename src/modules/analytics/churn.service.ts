import type { Seam } from '../../db/client'
import { DAY } from '../../lib/clock'
import { createPlayersRepository } from './players.repository'

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
export async function churnRisk(db: Seam, projectId: string, now: Date) {
  const t = now.getTime()
  const { crashed, negative, stopped } = await createPlayersRepository({ db }).churnSignals(projectId, t, REPORT_WINDOW, LIMIT)
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
