import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { createSdkRepository } from '../sdk/sdk.repository'
import { eventDaysFrom } from './analytics.rollup'
import { createTelemetryRepository, type EventDay, type SessionDay, type SessionSlice } from './telemetry.repository'

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
 * Sessions per UTC day of their start, version and platform from `from` on (of one version or
 * environment when `slice` says): complete days from the
 * daily rollup, the days after its watermark from `play_sessions` (an index range of those days).
 */
export async function sessionDays(db: Seam, projectId: string, from: string, slice: SessionSlice = {}): Promise<SessionDay[]> {
  const repo = createTelemetryRepository({ db })
  const through = await repo.rolledThrough('sessions')
  const tail = tailStart(through, from)
  const rolled = through ? await repo.rolledSessionDays(projectId, from, tail, slice) : []
  const raw = await repo.rawSessionDays(projectId, startOfDay(tail), slice)
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

/**
 * Crash-free session rate: sessions that did not crash / sessions, rounded to 4 places; null without
 * sessions. Counted as Sentry counts release health: a session that did not crash is healthy whether or
 * not it ended (a web page load is never "exited"; a game still running has not ended yet), so the
 * denominator is every session started, not only the ended ones.
 */
export const crashFreeRate = (sessions: number, crashed: number): number | null => (sessions > 0 ? round(Math.max(0, sessions - crashed) / sessions, 4) : null)

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

const DETAILS = 50
export const LOG_PAGE_SIZE = 25

/** `/events`: each event name with its count per UTC day over the last `days` days, most frequent first. */
export async function eventsByDay(db: Seam, projectId: string, now: Date, days: number) {
  const dayList = lastDays(now, days)
  const byName = new Map<string, Map<string, number>>()
  for (const r of await eventDays(db, projectId, dayList[0]!)) {
    const m = byName.get(r.name) ?? new Map<string, number>()
    m.set(r.day, (m.get(r.day) ?? 0) + r.count)
    byName.set(r.name, m)
  }
  const names = [...byName].map(([name, m]) => ({ name, total: [...m.values()].reduce((s, n) => s + n, 0), daily: dayList.map((day) => ({ day, count: m.get(day) ?? 0 })) }))
  return { days, from: dayList[0], to: dayList.at(-1), events: names.sort((a, b) => b.total - a.total || a.name.localeCompare(b.name)) }
}

/**
 * `/events/summary`: total events, session-days (per UTC day, distinct session tokens that sent the
 * event, summed over the days) and the top 20 names over the last `days` days.
 */
export async function eventsSummary(db: Seam, projectId: string, now: Date, days: number) {
  const dayList = lastDays(now, days)
  const rows = await eventDays(db, projectId, dayList[0]!)
  const byName = new Map<string, { count: number; sessions: number }>()
  for (const r of rows) {
    const b = byName.get(r.name) ?? { count: 0, sessions: 0 }
    b.count += r.count
    b.sessions += r.sessions
    byName.set(r.name, b)
  }
  const top = [...byName].map(([name, b]) => ({ name, count: b.count, session_days: b.sessions })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name))
  return { days, from: dayList[0], to: dayList.at(-1), total_events: top.reduce((s, e) => s + e.count, 0), event_names: top.length, top_events: top.slice(0, 20) }
}

/** `/events/{name}/details`: the newest 50 raw events of that name in the last `days` days (raw events older than retention are gone). */
export async function eventDetails(db: Seam, projectId: string, now: Date, name: string, days: number) {
  const repo = createSdkRepository({ db })
  const nameId = (await repo.eventNameIds(projectId, [name])).get(name)
  if (nameId === undefined) throw notFound('event not found')
  const rows = await repo.newestEvents(nameId, startOfDay(lastDays(now, days)[0]!), DETAILS)
  return {
    name,
    days,
    events: rows.map((e) => ({ id: e.id, created_at: new Date(e.createdAt).toISOString(), session_token: e.sessionToken, platform: e.platform, game_version: e.gameVersion, data: e.data === null ? {} : JSON.parse(e.data) })),
  }
}

/** `/log-stack`: normalized recent-log lines of auto-filed reports over the last `days` UTC days, by the number of reports that logged them, 25 a page. */
export async function logStack(db: Seam, projectId: string, now: Date, days: number, page: number) {
  const repo = createTelemetryRepository({ db })
  const from = lastDays(now, days)[0]!
  const total = await repo.logLineCount(projectId, from)
  const rows = await repo.logLines(projectId, from, LOG_PAGE_SIZE, (page - 1) * LOG_PAGE_SIZE)
  return { days, page, per_page: LOG_PAGE_SIZE, total, lines: rows.map((r) => ({ line: r.line, reports: r.reports, last_seen: new Date(r.lastSeen).toISOString() })) }
}
