import type { Seam } from '../../db/client'
import { DAY, HOUR } from '../../lib/clock'
import type { Project } from '../projects/projects.repository'
import { liveReport } from './project-reports'
import { dayOf, ESCALATING_RULE, isEscalating, TREND_DAYS, TREND_HOURS } from './report-trend'
import { createReportTrendRepository } from './report-trend.repository'

/** `counts` of the `n` buckets ending with `last` (oldest first), 0 where none. */
const series = (counts: Map<number, number>, last: number, n: number) => Array.from({ length: n }, (_, i) => counts.get(last - n + 1 + i) ?? 0)

/** Occurrences per clock hour over the last 24 hours (the current hour last) of each of a page's reports, by id. */
export async function hourlySparklines(db: Seam, reportIds: string[], now: Date): Promise<Map<string, number[]>> {
  const hour = Math.floor(now.getTime() / HOUR)
  const counts = await createReportTrendRepository({ db }).perHourOf(reportIds, (hour - TREND_HOURS + 1) * HOUR)
  return new Map([...counts].map(([id, c]) => [id, series(c, hour, TREND_HOURS)]))
}

/**
 * `GET /bugs/{number}/trend`: "is it getting worse?" for one report: its events per clock hour over
 * the last 24 hours (the current hour last) and per UTC day over the last 30 (today last), by event
 * time; its events in the last hour against its hourly average over the 24 hours before; and whether
 * that makes it escalating (report-trend.ts, the rule in `rule`).
 */
export async function reportTrend(db: Seam, project: Project, number: string, now: Date) {
  const report = await liveReport(db, project.id, number)
  const repo = createReportTrendRepository({ db })
  const hour = Math.floor(now.getTime() / HOUR)
  const today = dayOf(now.getTime())
  const [hours, days, windows] = await Promise.all([
    repo.perHourOf([report.id], (hour - TREND_HOURS + 1) * HOUR).then((m) => m.get(report.id)!),
    repo.perDay(report.id, (today - TREND_DAYS + 1) * DAY),
    repo.windows([report.id], now),
  ])
  const w = windows.get(report.id) ?? { lastHour: 0, dayBefore: 0 }
  return {
    hourly: { from: new Date((hour - TREND_HOURS + 1) * HOUR).toISOString(), counts: series(hours, hour, TREND_HOURS) },
    daily: { from: new Date((today - TREND_DAYS + 1) * DAY).toISOString(), counts: series(days, today, TREND_DAYS) },
    last_hour: w.lastHour,
    hourly_average: Math.round((w.dayBefore / 24) * 100) / 100,
    escalating: isEscalating(w.lastHour, w.dayBefore),
    rule: ESCALATING_RULE,
  }
}

/** Which of a page's reports are escalating at `now` (report-trend.ts): a range of each one's time index, not the project's window. */
export async function escalatingAmong(db: Seam, reportIds: string[], now: Date): Promise<Set<string>> {
  const windows = await createReportTrendRepository({ db }).windows(reportIds, now)
  return new Set([...windows].filter(([, w]) => isEscalating(w.lastHour, w.dayBefore)).map(([id]) => id))
}
