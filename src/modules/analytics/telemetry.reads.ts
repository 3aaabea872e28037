import type { Seam } from '../../db/client'
import { DAY } from '../../lib/clock'
import { eventDaysFrom } from './analytics.rollup'
import { createTelemetryRepository, type EventDay, type SessionDay } from './telemetry.repository'

export type { EventDay, SessionDay }

/** The UTC day (`YYYY-MM-DD`) of a time. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10)
/** Epoch ms of a UTC day's midnight. */
export const startOfDay = (day: string): number => Date.parse(`${day}T00:00:00.000Z`)
/** The `n` UTC days ending today, oldest first. */
export const lastDays = (now: Date, n: number): string[] => Array.from({ length: n }, (_, i) => dayOf(now.getTime() - (n - 1 - i) * DAY))

/** The first day read from raw rows: the day after the rollup's watermark, never before `from`. */
function tailStart(through: string | null, from: string): string {
  if (!through) return from
  const next = dayOf(startOfDay(through) + DAY)
  return next > from ? next : from
}

/**
 * Sessions per UTC day of their start, version and platform from `from` on: complete days from the
 * daily rollup, the days after its watermark from `play_sessions` (an index range of those days).
 */
export async function sessionDays(db: Seam, projectId: string, from: string, version?: string): Promise<SessionDay[]> {
  const repo = createTelemetryRepository({ db })
  const through = await repo.rolledThrough('sessions')
  const tail = tailStart(through, from)
  const rolled = through ? await repo.rolledSessionDays(projectId, from, tail, version) : []
  const raw = await repo.rawSessionDays(projectId, startOfDay(tail), version)
  return [...rolled, ...raw]
}

/**
 * Telemetry events per UTC day and name from `from` on: days up to the retention rollup's watermark
 * from telemetry_daily_events, later days from analytics_event_days (kept by the analytics job), and
 * raw rows only for days neither covers yet (before the job's first run).
 */
export async function eventDays(db: Seam, projectId: string, from: string): Promise<EventDay[]> {
  const repo = createTelemetryRepository({ db })
  const through = await repo.rolledThrough('events')
  const tail = tailStart(through, from)
  const rolled = through ? await repo.rolledEventDays(projectId, from, tail) : []
  const covered = await eventDaysFrom(db)
  const jobFrom = covered === null ? null : covered > tail ? covered : tail
  const counted = jobFrom ? await repo.countedEventDays(projectId, jobFrom) : []
  const rawUntil = jobFrom === null ? null : startOfDay(jobFrom)
  const raw = rawUntil !== null && rawUntil <= startOfDay(tail) ? [] : await repo.rawEventDays(projectId, startOfDay(tail), rawUntil)
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
