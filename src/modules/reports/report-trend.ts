import { type SQL, sql } from 'drizzle-orm'
import { DAY, HOUR } from '../../lib/clock'

/**
 * "Is it getting worse?": a report's events per hour and per day, its escalating state and the list's
 * "trending" order. All count occurrences by their event time (`created_at`, clamped at ingest): one
 * report's off its (report_id, created_at) index, a project's window of the last 25 hours off the
 * covering (project_id, created_at, report_id) one (ingest.table.ts).
 *
 * The escalating rule: a report is escalating when its events in the last hour number at least
 * ESCALATION_MIN and exceed ESCALATION_FACTOR times its hourly average over the 24 hours before that
 * hour (a report new this hour, with no events before it, escalates on ESCALATION_MIN alone).
 * Trending ranks by how far the last hour is above that average: 24 × last hour − the 24 hours before
 * (24 times the excess, kept whole), so a report steady at its average scores 0 and a fading one below.
 */
export const ESCALATION_FACTOR = 3
export const ESCALATION_MIN = 10
/** Hours the report page's hourly counts cover, the current hour last. */
export const TREND_HOURS = 24
/** Days the report page's daily counts cover, today (UTC) last. */
export const TREND_DAYS = 30

/** The rule in words, as the API and the report page show it. */
export const ESCALATING_RULE = `escalating: at least ${ESCALATION_MIN} events in the last hour, and more than ${ESCALATION_FACTOR} times the report's hourly average over the 24 hours before`

/** Whether a report with `lastHour` events in the last hour and `dayBefore` in the 24 hours before is escalating. */
export const isEscalating = (lastHour: number, dayBefore: number) => lastHour >= ESCALATION_MIN && lastHour * 24 > ESCALATION_FACTOR * dayBefore

/** The window's edges for `now`: the last hour starts at `hourAgo`, the 24 hours before it at `dayAgo`. */
export const trendWindow = (now: Date) => ({ hourAgo: now.getTime() - HOUR, dayAgo: now.getTime() - 25 * HOUR })

/** The window's edges as placeholders `hourAgo` and `dayAgo`, for statements prepared once (bound from trendWindow). */
export const trendParams = { hourAgo: sql`${sql.placeholder('hourAgo')}`, dayAgo: sql`${sql.placeholder('dayAgo')}` }

/** The day number (days since 1970-01-01, UTC) of a time. */
export const dayOf = (t: number) => Math.floor(t / DAY)

/** A window's events in its last hour, and in the 24 hours before (alias `o`). */
export const lastHourSum = (hourAgo: SQL | number) => sql`sum(CASE WHEN o.created_at >= ${hourAgo} THEN 1 ELSE 0 END)`
export const dayBeforeSum = (hourAgo: SQL | number) => sql`sum(CASE WHEN o.created_at < ${hourAgo} THEN 1 ELSE 0 END)`

/** The occurrences of the project's window (alias `o`), grouped by report: the FROM … GROUP BY of the trend's queries. */
const windowRows = (projectId: SQL | string, dayAgo: SQL | number) => sql`FROM report_occurrences o WHERE o.project_id = ${projectId} AND o.created_at >= ${dayAgo} GROUP BY o.report_id`

/** The HAVING of isEscalating over a window's rows. */
const escalatingHaving = (hourAgo: SQL | number) =>
  sql`HAVING ${lastHourSum(hourAgo)} >= ${sql.raw(String(ESCALATION_MIN))} AND ${lastHourSum(hourAgo)} * 24 > ${sql.raw(String(ESCALATION_FACTOR))} * ${dayBeforeSum(hourAgo)}`

/** The ids of the project's escalating reports (a subquery for `IN`). */
export const escalatingIds = (projectId: SQL | string, w: { hourAgo: SQL | number; dayAgo: SQL | number }) => sql`SELECT o.report_id ${windowRows(projectId, w.dayAgo)} ${escalatingHaving(w.hourAgo)}`

/** `(report_id, score)` of the project's reports with events in the window, the trending score (a derived table). */
export const trendScores = (projectId: SQL | string, w: { hourAgo: SQL | number; dayAgo: SQL | number }) =>
  sql`SELECT o.report_id, sum(CASE WHEN o.created_at >= ${w.hourAgo} THEN 24 ELSE -1 END) AS score ${windowRows(projectId, w.dayAgo)}`
