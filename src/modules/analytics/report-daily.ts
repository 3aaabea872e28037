import type { SqliteHandle } from '../../db/client'
import { sql } from 'drizzle-orm'
import { integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core'
import type { DbOrTx, Tx } from '../../db/client'
import { DAY } from '../../lib/clock'

/**
 * Occurrences per report and UTC day (`day` counts days since 1970-01-01), for the list's sparklines.
 * The analytics rollup adds the occurrences past its cursor (analytics.rollup.ts); a read adds the
 * few it has not reached yet from `report_occurrences` itself (`sparklinesOf`), so a sparkline is
 * exact the moment an occurrence is stored, whenever the rollup last ran. WITHOUT ROWID, keyed by
 * report then day: a page's 25 reports are 25 short key ranges. Created through the module's `database` parts.
 */
export const REPORT_DAILY_TABLE = 'report_daily'

export const reportDailySql = [
  `CREATE TABLE IF NOT EXISTS report_daily (
    report_seq INTEGER NOT NULL REFERENCES reports(seq) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (report_seq, day)
  ) WITHOUT ROWID`,
]

/** The table as Drizzle sees it, for the rollup's prepared upsert. */
export const reportDaily = sqliteTable(
  'report_daily',
  {
    reportSeq: integer('report_seq').notNull(),
    day: integer('day').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.reportSeq, t.day] })],
)

/** Days a sparkline covers, today (UTC) the last. */
export const SPARKLINE_DAYS = 14

/** The rollup cursor over `report_occurrences.seq` (analytics.rollup.ts) this table is counted up to. */
export const OCCURRENCES_CURSOR = 'analytics_occurrences'

const cursorSql = sql`coalesce((SELECT position FROM rollup_cursors WHERE name = ${OCCURRENCES_CURSOR}), 0)`

/** A report's rows again from its occurrences up to the cursor, after split or merge moved some (those past it are the rollup's). */
export function recountReportDaily(tx: Tx, report: { id: string; seq: number }): void {
  tx.run(sql`DELETE FROM report_daily WHERE report_seq = ${report.seq}`)
  tx.run(sql`INSERT INTO report_daily (report_seq, day, n)
    SELECT ${report.seq}, o.created_at / ${DAY}, count(*) FROM report_occurrences o
    WHERE o.report_id = ${report.id} AND o.seq <= ${cursorSql} GROUP BY 2`)
}

/** Counts the occurrences a database had before the table, up to the rollup's cursor. */
export function backfillReportDaily(sqlite: SqliteHandle): void {
  sqlite.exec(`INSERT INTO report_daily (report_seq, day, n)
    SELECT r.seq, o.created_at / ${DAY}, count(*) FROM report_occurrences o JOIN reports r ON r.id = o.report_id
    WHERE o.seq <= coalesce((SELECT position FROM rollup_cursors WHERE name = '${OCCURRENCES_CURSOR}'), 0)
    GROUP BY r.seq, 2`)
}

/**
 * Occurrences per day over the last 14 UTC days (oldest first, today last) of each report, in one
 * query for the whole page: the rolled-up days, plus the report's occurrences past the rollup's
 * cursor (a range of the (report_id, seq) index: at most the minute since the rollup last ran).
 */
export function sparklinesOf(db: DbOrTx, rows: { seq: number; id: string }[], now: Date): Map<number, number[]> {
  const out = new Map(rows.map((r) => [r.seq, new Array<number>(SPARKLINE_DAYS).fill(0)]))
  if (rows.length === 0) return out
  const today = Math.floor(now.getTime() / DAY)
  const from = today - SPARKLINE_DAYS + 1
  const counts = db.all<{ seq: number; day: number; n: number }>(sql`
    SELECT seq, day, sum(n) AS n FROM (
      SELECT report_seq AS seq, day, n FROM report_daily
      WHERE report_seq IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.seq))})) AND day BETWEEN ${from} AND ${today}
      UNION ALL
      SELECT r.seq, o.created_at / ${DAY}, 1 FROM report_occurrences o JOIN reports r ON r.id = o.report_id
      WHERE o.report_id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))})) AND o.seq > ${cursorSql}
        AND o.created_at >= ${from * DAY} AND o.created_at < ${(today + 1) * DAY}
    ) GROUP BY seq, day`)
  for (const c of counts) out.get(c.seq)![c.day - from] = c.n
  return out
}
