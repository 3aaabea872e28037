import { sql } from 'drizzle-orm'
import { rowsOf, type Seam } from '../../db/client'
import { DAY, HOUR } from '../../lib/clock'
import { escalatingIds, trendWindow } from './report-trend'

type Count = { at: number | string; n: number | string }

/**
 * The trend's reads (report-trend.ts) over the occurrences, as async functions over the database seam.
 * Portable SQL: PostgreSQL divides its bigint times as integers, as SQLite does, and answers sums as strings.
 */
export function createReportTrendRepository({ db }: { db: Seam }) {
  return {
    /** A report's occurrences per clock hour since `from` (a range of the project's time index). */
    /** Occurrences per clock hour since `from` of each of these reports of a project (a page's hourly sparklines). */
    perHourOf: async (projectId: string, reportIds: string[], from: number): Promise<Map<string, Map<number, number>>> => {
      const out = new Map(reportIds.map((id) => [id, new Map<number, number>()]))
      if (reportIds.length === 0) return out
      const ids = sql.join(
        reportIds.map((id) => sql`${id}`),
        sql`, `,
      )
      const rows = await db.read((q) =>
        rowsOf<Count & { report_id: string }>(
          q,
          sql`SELECT o.report_id, o.created_at / ${HOUR} AS at, count(*) AS n FROM report_occurrences o
            WHERE o.project_id = ${projectId} AND o.created_at >= ${from} AND o.report_id IN (${ids}) GROUP BY o.report_id, 2`,
        ),
      )
      for (const r of rows) out.get(r.report_id)!.set(Number(r.at), Number(r.n))
      return out
    },

    /** A report's occurrences per UTC day since `from` (its occurrences, through their (report_id, seq) index). */
    perDay: async (reportId: string, from: number): Promise<Map<number, number>> => {
      const rows = await db.read((q) =>
        rowsOf<Count>(q, sql`SELECT o.created_at / ${DAY} AS at, count(*) AS n FROM report_occurrences o WHERE o.report_id = ${reportId} AND o.created_at >= ${from} GROUP BY 1`),
      )
      return new Map(rows.map((r) => [Number(r.at), Number(r.n)]))
    },

    /** A report's events in the last hour and in the 24 hours before it. */
    window: async (report: { id: string; projectId: string }, now: Date): Promise<{ lastHour: number; dayBefore: number }> => {
      const w = trendWindow(now)
      const [row] = await db.read((q) =>
        rowsOf<{ last_hour: number | string | null; day_before: number | string | null }>(
          q,
          sql`SELECT sum(CASE WHEN o.created_at >= ${w.hourAgo} THEN 1 ELSE 0 END) AS last_hour, sum(CASE WHEN o.created_at < ${w.hourAgo} THEN 1 ELSE 0 END) AS day_before
            FROM report_occurrences o WHERE o.project_id = ${report.projectId} AND o.created_at >= ${w.dayAgo} AND o.report_id = ${report.id}`,
        ),
      )
      return { lastHour: Number(row?.last_hour ?? 0), dayBefore: Number(row?.day_before ?? 0) }
    },

    /** The ids of the project's escalating reports at `now` (live or not: callers keep the ones they show). */
    escalating: async (projectId: string, now: Date): Promise<Set<string>> =>
      new Set((await db.read((q) => rowsOf<{ report_id: string }>(q, escalatingIds(projectId, trendWindow(now))))).map((r) => r.report_id)),
  }
}
