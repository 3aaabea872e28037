import { sql } from 'drizzle-orm'
import { execute, onPostgres, preparedRows, type Seam } from '../../db/client'
import { inJsonList } from '../../db/portable-sql'
import { DAY } from '../../lib/clock'
import { OCCURRENCES_CURSOR, SPARKLINE_DAYS } from './report-daily'

const cursorSql = sql`coalesce((SELECT position FROM rollup_cursors WHERE name = ${OCCURRENCES_CURSOR}), 0)`

const ph = sql.placeholder

/**
 * Occurrences per report (`seq`) and day of a page's reports, days `from` to `today`: the rolled-up days, plus
 * the report's occurrences past the rollup's cursor (a range of the (report_id, seq) index: at most the
 * minute since the rollup last ran). Every list request asks, so it is prepared once per connection.
 */
const dailyCountsOf = preparedRows<{ seq: number | string; day: number | string; n: number | string }>((q) => {
  const pg = onPostgres(q)
  return sql`
    SELECT seq, day, sum(n) AS n FROM (
      SELECT report_seq AS seq, day, n FROM report_daily
      WHERE ${inJsonList(pg, sql`report_seq`, ph('seqs'), 'integer')} AND day BETWEEN ${ph('from')} AND ${ph('today')}
      UNION ALL
      SELECT r.seq, o.created_at / ${DAY}, 1 FROM report_occurrences o JOIN reports r ON r.id = o.report_id
      WHERE ${inJsonList(pg, sql`o.report_id`, ph('ids'))} AND o.seq > ${cursorSql}
        AND o.created_at >= ${ph('fromTime')} AND o.created_at < ${ph('toTime')}
    ) t GROUP BY seq, day`
})

/**
 * The runtime reads and writes of report_daily (report-daily.ts) beside the rollup's: a report's
 * rows counted again after split or merge, and a page's sparklines. Portable SQL over the seam.
 */
export function createReportDailyRepository({ db }: { db: Seam }) {
  return {
    /** A report's rows again from its occurrences up to the cursor, after split or merge moved some (those past it are the rollup's). */
    recount: (report: { id: string; seq: number }) =>
      db.write(async (q) => {
        await execute(q, sql`DELETE FROM report_daily WHERE report_seq = ${report.seq}`)
        await execute(
          q,
          sql`INSERT INTO report_daily (report_seq, day, n)
            SELECT CAST(${report.seq} AS integer), o.created_at / ${DAY}, count(*) FROM report_occurrences o
            WHERE o.report_id = ${report.id} AND o.seq <= ${cursorSql} GROUP BY 2`,
        )
      }),

    /** Occurrences per day over the last `days` UTC days (14 unless said; oldest first, today last) of each report, in one query for the whole page. */
    sparklines: async (rows: { seq: number; id: string }[], now: Date, days = SPARKLINE_DAYS): Promise<Map<number, number[]>> => {
      const out = new Map(rows.map((r) => [r.seq, new Array<number>(days).fill(0)]))
      if (rows.length === 0) return out
      const today = Math.floor(now.getTime() / DAY)
      const from = today - days + 1
      const params = { seqs: JSON.stringify(rows.map((r) => r.seq)), ids: JSON.stringify(rows.map((r) => r.id)), from, today, fromTime: from * DAY, toTime: (today + 1) * DAY }
      const counts = await db.read((q) => dailyCountsOf(q, params))
      // PostgreSQL answers bigint sums as strings.
      for (const c of counts) out.get(Number(c.seq))![Number(c.day) - from] = Number(c.n)
      return out
    },
  }
}
