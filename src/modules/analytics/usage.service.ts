import { and, eq, gte, inArray, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { reportStatusCounts, STATUSES, PRIORITIES, CATEGORIES } from '../reports/reports.table'
import { visibleProjectsWhere } from '../projects/projects.repository'
import { projects } from '../projects/projects.table'
import { accountStorageBytes } from '../retention/retention.stats'
import { analyticsDailyReports, analyticsDailyResolved, analyticsReportDimensions } from './analytics.table'
import { crashFreeRate, dayOf, lastDays, round, sessionDays } from './telemetry.reads'

const WINDOWS = { today: 1, last_7_days: 7, last_30_days: 30 } as const

/**
 * Per UTC day of the given projects over the last 30 days: reports filed, submissions received
 * (events: every occurrence, the first of each report included) and those of crashes
 * (analytics_daily_reports), and sessions started.
 */
function dailyVolumes(db: DbOrTx, projectIds: string[], now: Date) {
  const days = lastDays(now, 30)
  const reportsByDay = new Map<string, number>()
  const eventsByDay = new Map<string, { events: number; crashEvents: number }>()
  if (projectIds.length) {
    const d = analyticsDailyReports
    const rows = db
      .select({ day: d.day, n: sql<number>`sum(${d.reports})`, events: sql<number>`sum(${d.events})`, crashEvents: sql<number>`sum(${d.crashEvents})` })
      .from(d)
      .where(and(inArray(d.projectId, projectIds), gte(d.day, days[0]!)))
      .groupBy(d.day)
      .all()
    for (const r of rows) {
      reportsByDay.set(r.day, r.n)
      eventsByDay.set(r.day, { events: r.events, crashEvents: r.crashEvents })
    }
  }
  const sessionsByDay = new Map<string, number>()
  for (const id of projectIds) for (const s of sessionDays(db, id, days[0]!)) sessionsByDay.set(s.day, (sessionsByDay.get(s.day) ?? 0) + s.started)
  return { days, reportsByDay, eventsByDay, sessionsByDay }
}

/** `/usage` and `/api/usage`: reports filed and sessions started today, in the last 7 and 30 UTC days (today included), and the account's stored bytes. */
export function usage(db: DbOrTx, accountId: string, projectIds: string[], now: Date) {
  const v = dailyVolumes(db, projectIds, now)
  const sum = (m: Map<string, number>, n: number) => v.days.slice(-n).reduce((s, d) => s + (m.get(d) ?? 0), 0)
  return {
    reports: Object.fromEntries(Object.entries(WINDOWS).map(([k, n]) => [k, sum(v.reportsByDay, n)])),
    sessions: Object.fromEntries(Object.entries(WINDOWS).map(([k, n]) => [k, sum(v.sessionsByDay, n)])),
    storage_bytes: accountStorageBytes(db, accountId),
  }
}

/** The projects of an account that a member limited to `seenIds` sees (null: all of them). */
export const accountProjects = (db: DbOrTx, accountId: string, seenIds: string[] | null) =>
  db
    .select({ id: projects.id, slug: projects.slug, name: projects.name })
    .from(projects)
    .where(and(eq(projects.accountId, accountId), visibleProjectsWhere(seenIds)))
    .all()

/**
 * `/api/analytics/dashboard`: across the account's projects the member sees, live reports by status,
 * priority and category, reports filed and moved to resolved per UTC day over 30 days, and each
 * project's crash-free session rate over the last 30 days.
 */
export function dashboard(db: DbOrTx, accountId: string, seenIds: string[] | null, now: Date) {
  const list = accountProjects(db, accountId, seenIds)
  const ids = list.map((p) => p.id)
  const zero = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>
  const byStatus = zero(STATUSES)
  const byPriority = zero(PRIORITIES)
  const byCategory = zero(CATEGORIES)
  const resolved = new Map<string, number>()
  const v = dailyVolumes(db, ids, now)
  if (ids.length) {
    for (const r of db.select().from(reportStatusCounts).where(inArray(reportStatusCounts.projectId, ids)).all()) byStatus[r.status] = (byStatus[r.status] ?? 0) + r.n
    for (const r of db.select().from(analyticsReportDimensions).where(inArray(analyticsReportDimensions.projectId, ids)).all()) {
      const target = r.dimension === 'priority' ? byPriority : byCategory
      target[r.value] = (target[r.value] ?? 0) + r.n
    }
    for (const r of db.select({ day: analyticsDailyResolved.day, n: sql<number>`sum(${analyticsDailyResolved.n})` }).from(analyticsDailyResolved).where(and(inArray(analyticsDailyResolved.projectId, ids), gte(analyticsDailyResolved.day, v.days[0]!))).groupBy(analyticsDailyResolved.day).all())
      resolved.set(r.day, r.n)
  }
  const from = v.days[0]!
  return {
    projects: list.length,
    by_status: byStatus,
    by_priority: byPriority,
    by_category: byCategory,
    daily: v.days.map((day) => ({
      day,
      new: v.reportsByDay.get(day) ?? 0,
      events: v.eventsByDay.get(day)?.events ?? 0,
      crash_events: v.eventsByDay.get(day)?.crashEvents ?? 0,
      resolved: resolved.get(day) ?? 0,
      sessions: v.sessionsByDay.get(day) ?? 0,
    })),
    crash_free: list.map((p) => {
      const rows = sessionDays(db, p.id, from)
      const ended = rows.reduce((s, r) => s + r.ended, 0)
      const crashed = rows.reduce((s, r) => s + r.crashed, 0)
      return { project_id: p.id, slug: p.slug, name: p.name, ended_sessions: ended, crashed_sessions: crashed, crash_free_rate: crashFreeRate(ended, crashed) }
    }),
  }
}

/** `/satisfaction`: ratings of the project's live reports: average, count, distribution 1–5, and per UTC day over the last `days` days (by when each rating was last given). */
export function satisfaction(db: DbOrTx, projectId: string, now: Date, days: number) {
  // Ratings are few (one per team member and report): CROSS JOIN keeps them the outer loop, where
  // the planner would otherwise walk a million reports of the project looking for ratings.
  const rows = db
    .all<{ rating: number; at: number }>(sql`SELECT rr.rating AS rating, rr.updated_at AS at FROM report_ratings rr CROSS JOIN reports r ON r.id = rr.report_id
      WHERE r.project_id = ${projectId} AND r.deleted_at IS NULL`)
    .map((r) => ({ rating: r.rating, at: new Date(r.at) }))
  const distribution = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } as Record<number, number>
  for (const r of rows) distribution[r.rating] = (distribution[r.rating] ?? 0) + 1
  const dayList = lastDays(now, days)
  const perDay = new Map<string, number[]>()
  for (const r of rows) {
    const d = dayOf(r.at.getTime())
    if (d >= dayList[0]!) perDay.set(d, [...(perDay.get(d) ?? []), r.rating])
  }
  const avg = (xs: number[]) => (xs.length ? round(xs.reduce((s, x) => s + x, 0) / xs.length, 2) : null)
  return {
    count: rows.length,
    average: avg(rows.map((r) => r.rating)),
    distribution,
    days,
    trend: dayList.map((day) => ({ day, count: perDay.get(day)?.length ?? 0, average: avg(perDay.get(day) ?? []) })),
  }
}
