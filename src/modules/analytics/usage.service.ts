import type { Db, Seam } from '../../db/client'
import { STATUSES, PRIORITIES, CATEGORIES } from '../reports/reports.types'
import { createReportsRepository } from '../reports/reports.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { accountStorageBytes } from '../auth/accounts.service'
import { createAnalyticsRepository } from './analytics.repository'
import { crashFreeRate, dayOf, lastDays, round, sessionDays } from './telemetry.service'

const WINDOWS = { today: 1, last_7_days: 7, last_30_days: 30 } as const

/**
 * Per UTC day of the given projects over the last 30 days: reports filed, submissions received
 * (events: every occurrence, the first of each report included) and those of crashes
 * (analytics_daily_reports), and sessions started.
 */
async function dailyVolumes(db: Seam, projectIds: string[], now: Date) {
  const days = lastDays(now, 30)
  const reportsByDay = new Map<string, number>()
  const eventsByDay = new Map<string, { events: number; crashEvents: number; crashes: number }>()
  for (const r of await createAnalyticsRepository({ db }).dailyTotals(projectIds, days[0]!)) {
    reportsByDay.set(r.day, r.n)
    eventsByDay.set(r.day, { events: r.events, crashEvents: r.crashEvents, crashes: r.crashes })
  }
  const sessionsByDay = new Map<string, number>()
  for (const id of projectIds) for (const s of await sessionDays(db, id, days[0]!)) sessionsByDay.set(s.day, (sessionsByDay.get(s.day) ?? 0) + s.started)
  return { days, reportsByDay, eventsByDay, sessionsByDay }
}

/** `/usage` and `/api/usage`: reports filed and sessions started today, in the last 7 and 30 UTC days (today included), and the account's stored bytes. */
export async function usage(db: Db, accountId: string, projectIds: string[], now: Date) {
  const v = await dailyVolumes(db, projectIds, now)
  const sum = (m: Map<string, number>, n: number) => v.days.slice(-n).reduce((s, d) => s + (m.get(d) ?? 0), 0)
  return {
    reports: Object.fromEntries(Object.entries(WINDOWS).map(([k, n]) => [k, sum(v.reportsByDay, n)])),
    sessions: Object.fromEntries(Object.entries(WINDOWS).map(([k, n]) => [k, sum(v.sessionsByDay, n)])),
    storage_bytes: await accountStorageBytes(db, accountId),
  }
}

/** The projects of an account that a member limited to `seenIds` sees (null: all of them). */
export const accountProjects = async (db: Seam, accountId: string, seenIds: string[] | null) =>
  (await createProjectsRepository({ db }).listInAccount(accountId, seenIds)).map((p) => ({ id: p.id, slug: p.slug, name: p.name }))

/**
 * `/api/analytics/dashboard`: across the account's projects the member sees (`/projects/{slug}/dashboard`:
 * `seenIds` is that one project), live reports by status,
 * priority and category, reports filed and moved to resolved per UTC day over 30 days, and each
 * project's crash-free session rate over the last 30 days.
 */
export async function dashboard(db: Seam, accountId: string, seenIds: string[] | null, now: Date) {
  const list = await accountProjects(db, accountId, seenIds)
  const ids = list.map((p) => p.id)
  const zero = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, 0])) as Record<string, number>
  const byStatus = zero(STATUSES)
  const byPriority = zero(PRIORITIES)
  const byCategory = zero(CATEGORIES)
  const resolved = new Map<string, number>()
  const v = await dailyVolumes(db, ids, now)
  const repo = createAnalyticsRepository({ db })
  for (const r of await createReportsRepository({ db }).statusCounts(ids)) byStatus[r.status] = (byStatus[r.status] ?? 0) + r.n
  for (const r of await repo.dimensions(ids)) {
    const target = r.dimension === 'priority' ? byPriority : byCategory
    target[r.value] = (target[r.value] ?? 0) + r.n
  }
  for (const r of await repo.dailyResolved(ids, v.days[0]!)) resolved.set(r.day, r.n)
  const from = v.days[0]!
  const crashFree = []
  for (const p of list) {
    const rows = await sessionDays(db, p.id, from)
    const sessions = rows.reduce((s, r) => s + r.started, 0)
    const ended = rows.reduce((s, r) => s + r.ended, 0)
    const crashed = rows.reduce((s, r) => s + r.crashed, 0)
    crashFree.push({ project_id: p.id, slug: p.slug, name: p.name, sessions, ended_sessions: ended, crashed_sessions: crashed, crash_free_rate: crashFreeRate(sessions, crashed) })
  }
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
      crashes: v.eventsByDay.get(day)?.crashes ?? 0,
      resolved: resolved.get(day) ?? 0,
      sessions: v.sessionsByDay.get(day) ?? 0,
    })),
    crash_free: crashFree,
  }
}

/** `/satisfaction`: ratings of the project's live reports: average, count, distribution 1–5, and per UTC day over the last `days` days (by when each rating was last given). */
export async function satisfaction(db: Seam, projectId: string, now: Date, days: number) {
  const rows = (await createAnalyticsRepository({ db }).liveReportRatings(projectId)).map((r) => ({ rating: r.rating, at: new Date(r.at) }))
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
