import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { DAY } from '../../lib/clock'
import { eventDaysFrom } from './analytics.rollup'

/** The UTC day (`YYYY-MM-DD`) of a time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
/** Epoch ms of a UTC day's midnight. */
export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`)
/** The `n` UTC days ending today, oldest first. */
export const lastDays = (now: Date, n: number): string[] => Array.from({ length: n }, (_, i) => dayOf(now.getTime() - (n - 1 - i) * DAY))

/** The last day the retention job rolled up (telemetry_daily_*), or null before its first run. */
function rolledThrough(db: DbOrTx, rollup: 'events' | 'sessions'): string | null {
  return db.all<{ through_day: string }>(sql`SELECT through_day FROM telemetry_rollup_state WHERE name = ${rollup}`)[0]?.through_day ?? null
}

/** The first day read from raw rows: the day after the rollup's watermark, never before `from`. */
function tailStart(through: string | null, from: string): string {
  if (!through) return from
  const next = dayOf(startOfDay(through) + DAY)
  return next > from ? next : from
}

export interface SessionDay {
  day: string
  game_version: string
  platform: string
  started: number
  ended: number
  crashed: number
}

/**
 * Sessions per UTC day of their start, version and platform from `from` on: complete days from the
 * daily rollup, the days after its watermark from `play_sessions` (an index range of those days).
 */
export function sessionDays(db: DbOrTx, projectId: string, from: string, version?: string): SessionDay[] {
  const through = rolledThrough(db, 'sessions')
  const tail = tailStart(through, from)
  const v = version === undefined ? sql`` : sql` AND game_version = ${version}`
  const rolled = through
    ? db.all<SessionDay>(sql`SELECT day, game_version, platform, started, ended, crashed FROM telemetry_daily_sessions
        WHERE project_id = ${projectId} AND day >= ${from} AND day < ${tail}${v}`)
    : []
  const raw = db.all<SessionDay>(sql`SELECT strftime('%Y-%m-%d', started_at / 1000, 'unixepoch') AS day, game_version, platform,
      count(*) AS started, count(ended_at) AS ended, coalesce(sum(crashed), 0) AS crashed
    FROM play_sessions WHERE project_id = ${projectId} AND started_at >= ${startOfDay(tail)}${v}
    GROUP BY day, game_version, platform`)
  return [...rolled, ...raw]
}

export interface EventDay {
  day: string
  name: string
  count: number
  sessions: number
}

/**
 * Telemetry events per UTC day and name from `from` on: days up to the retention rollup's watermark
 * from telemetry_daily_events, later days from analytics_event_days (kept by the analytics job), and
 * raw rows only for days neither covers yet (before the job's first run).
 */
export function eventDays(db: DbOrTx, projectId: string, from: string): EventDay[] {
  const through = rolledThrough(db, 'events')
  const tail = tailStart(through, from)
  const rolled = through
    ? db.all<EventDay>(sql`SELECT day, event_name AS name, count, sessions FROM telemetry_daily_events
        WHERE project_id = ${projectId} AND day >= ${from} AND day < ${tail}`)
    : []
  const covered = eventDaysFrom(db)
  const jobFrom = covered === null ? null : covered > tail ? covered : tail
  const counted = jobFrom
    ? db.all<EventDay>(sql`SELECT day, event_name AS name, count, sessions FROM analytics_event_days WHERE project_id = ${projectId} AND day >= ${jobFrom}`)
    : []
  const rawUntil = jobFrom === null ? null : startOfDay(jobFrom)
  const raw =
    rawUntil !== null && rawUntil <= startOfDay(tail)
      ? []
      : db.all<EventDay>(sql`SELECT strftime('%Y-%m-%d', e.created_at / 1000, 'unixepoch') AS day, n.name AS name,
      count(*) AS count, count(DISTINCT e.session_token) AS sessions
    FROM event_names n JOIN events e ON e.name_id = n.id AND e.created_at >= ${startOfDay(tail)}${rawUntil === null ? sql`` : sql` AND e.created_at < ${rawUntil}`}
    WHERE n.project_id = ${projectId} GROUP BY n.id, day`)
  return [...rolled, ...counted, ...raw]
}

/** Crash-free session rate: ended sessions that did not crash / ended sessions, rounded to 4 places; null without ended sessions. */
export const crashFreeRate = (ended: number, crashed: number): number | null => (ended > 0 ? round((ended - crashed) / ended, 4) : null)

export const round = (x: number, places: number): number => {
  const f = 10 ** places
  return Math.round(x * f) / f
}

/** Sums rows into buckets keyed by `key`. */
export function sumBy<T, K extends keyof T>(rows: T[], key: (r: T) => string, fields: K[]): Map<string, Record<K, number>> {
  const out = new Map<string, Record<K, number>>()
  for (const r of rows) {
    const k = key(r)
    let b = out.get(k)
    if (!b) out.set(k, (b = Object.fromEntries(fields.map((f) => [f, 0])) as Record<K, number>))
    for (const f of fields) b[f] += Number(r[f])
  }
  return out
}
