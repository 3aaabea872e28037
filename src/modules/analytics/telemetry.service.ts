import { and, desc, eq, gte, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import { eventNames, events } from '../sdk/sdk.table'
import { analyticsLogLines } from './analytics.table'
import { eventDays, lastDays, startOfDay } from './telemetry.reads'

const DETAILS = 50
export const LOG_PAGE_SIZE = 25

/** `/events`: each event name with its count per UTC day over the last `days` days, most frequent first. */
export function eventsByDay(db: DbOrTx, projectId: string, now: Date, days: number) {
  const dayList = lastDays(now, days)
  const byName = new Map<string, Map<string, number>>()
  for (const r of eventDays(db, projectId, dayList[0]!)) {
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
export function eventsSummary(db: DbOrTx, projectId: string, now: Date, days: number) {
  const dayList = lastDays(now, days)
  const rows = eventDays(db, projectId, dayList[0]!)
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
export function eventDetails(db: DbOrTx, projectId: string, now: Date, name: string, days: number) {
  const n = db.select({ id: eventNames.id }).from(eventNames).where(and(eq(eventNames.projectId, projectId), eq(eventNames.name, name))).get()
  if (!n) throw notFound('event not found')
  const since = startOfDay(lastDays(now, days)[0]!)
  const rows = db.select().from(events).where(and(eq(events.nameId, n.id), gte(events.createdAt, since))).orderBy(desc(events.createdAt), desc(events.id)).limit(DETAILS).all()
  return {
    name,
    days,
    events: rows.map((e) => ({ id: e.id, created_at: new Date(e.createdAt).toISOString(), session_token: e.sessionToken, platform: e.platform, game_version: e.gameVersion, data: e.data === null ? {} : JSON.parse(e.data) })),
  }
}

/** `/log-stack`: normalized recent-log lines of auto-filed reports over the last `days` UTC days, by the number of reports that logged them, 25 a page. */
export function logStack(db: DbOrTx, projectId: string, now: Date, days: number, page: number) {
  const from = lastDays(now, days)[0]!
  const where = and(eq(analyticsLogLines.projectId, projectId), gte(analyticsLogLines.day, from))
  const total = db.select({ n: sql<number>`count(DISTINCT ${analyticsLogLines.line})` }).from(analyticsLogLines).where(where).get()!.n
  const reportsCol = sql<number>`sum(${analyticsLogLines.count})`
  const rows = db
    .select({ line: analyticsLogLines.line, reports: reportsCol, lastSeen: sql<number>`max(${analyticsLogLines.lastSeen})` })
    .from(analyticsLogLines)
    .where(where)
    .groupBy(analyticsLogLines.line)
    .orderBy(desc(reportsCol), analyticsLogLines.line)
    .limit(LOG_PAGE_SIZE)
    .offset((page - 1) * LOG_PAGE_SIZE)
    .all()
  return { days, page, per_page: LOG_PAGE_SIZE, total, lines: rows.map((r) => ({ line: r.line, reports: r.reports, last_seen: new Date(r.lastSeen).toISOString() })) }
}
