import { sql } from 'drizzle-orm'
import { onPostgres, preparedRows, type Query, rowsOf, type Seam } from '../../db/client'
import { inJsonList } from '../../db/portable-sql'
import { DAY, HOUR } from '../../lib/clock'
import { dayBeforeSum, escalatingIds, lastHourSum, trendParams, trendWindow } from './report-trend'

type Count = { at: number | string; n: number | string }

/** `o.report_id` among these ids, bound as one JSON parameter. */
const amongIds = (q: Query, ids: string[]) => inJsonList(onPostgres(q), sql`o.report_id`, JSON.stringify(ids))

/** A page's last hour and the day before it, per report: every list request asks, so it is prepared once per connection. */
const windowsOf = preparedRows<{ report_id: string; last_hour: number | string; day_before: number | string }>(
  (q) => sql`SELECT o.report_id, ${lastHourSum(trendParams.hourAgo)} AS last_hour, ${dayBeforeSum(trendParams.hourAgo)} AS day_before
    FROM report_occurrences o WHERE ${inJsonList(onPostgres(q), sql`o.report_id`, sql.placeholder('ids'))} AND o.created_at >= ${trendParams.dayAgo} GROUP BY o.report_id`,
)

/**
 * The trend's reads (report-trend.ts) over the occurrences, as async functions over the database seam.
 * Portable SQL: PostgreSQL divides its bigint times as integers, as SQLite does, and answers sums as strings.
 */
export function createReportTrendRepository({ db }: { db: Seam }) {
  return {
    /** A report's occurrences per clock hour since `from` (a range of the project's time index). */
    /** Occurrences per clock hour since `from` of each of these reports (a page's hourly sparklines): a range of each one's time index. */
    perHourOf: async (reportIds: string[], from: number): Promise<Map<string, Map<number, number>>> => {
      const out = new Map(reportIds.map((id) => [id, new Map<number, number>()]))
      if (reportIds.length === 0) return out
      const rows = await db.read((q) =>
        rowsOf<Count & { report_id: string }>(
          q,
          sql`SELECT o.report_id, o.created_at / ${HOUR} AS at, count(*) AS n FROM report_occurrences o
            WHERE ${amongIds(q, reportIds)} AND o.created_at >= ${from} GROUP BY o.report_id, 2`,
        ),
      )
      for (const r of rows) out.get(r.report_id)!.set(Number(r.at), Number(r.n))
      return out
    },

    /** A report's occurrences per UTC day since `from` (a range of its time index). */
    perDay: async (reportId: string, from: number): Promise<Map<number, number>> => {
      const rows = await db.read((q) =>
        rowsOf<Count>(q, sql`SELECT o.created_at / ${DAY} AS at, count(*) AS n FROM report_occurrences o WHERE o.report_id = ${reportId} AND o.created_at >= ${from} GROUP BY 1`),
      )
      return new Map(rows.map((r) => [Number(r.at), Number(r.n)]))
    },

    /** Each of these reports' events in the last hour and in the 24 hours before it (those with none are left out): a range of each one's time index. */
    windows: async (reportIds: string[], now: Date): Promise<Map<string, { lastHour: number; dayBefore: number }>> => {
      if (reportIds.length === 0) return new Map()
      const rows = await db.read((q) => windowsOf(q, { ids: JSON.stringify(reportIds), ...trendWindow(now) }))
      return new Map(rows.map((r) => [r.report_id, { lastHour: Number(r.last_hour), dayBefore: Number(r.day_before) }]))
    },

    /** The ids of the project's escalating reports at `now` (live or not: callers keep the ones they show), off its covering time index. */
    escalating: async (projectId: string, now: Date): Promise<Set<string>> =>
      new Set((await db.read((q) => rowsOf<{ report_id: string }>(q, escalatingIds(projectId, trendWindow(now))))).map((r) => r.report_id)),
  }
}
