import type { Backfill } from '../../db/post-migrate'
import { integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core'
import { DAY } from '../../lib/clock'

/**
 * Occurrences per report and UTC day (`day` counts days since 1970-01-01), for the list's sparklines.
 * The analytics rollup adds the occurrences past its cursor (analytics.rollup.ts); a read adds the
 * few it has not reached yet from `report_occurrences` itself (report-daily.repository.ts), so a sparkline is
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

/** Counts the occurrences a database had before the table, up to the rollup's cursor. */
export const reportDailyBackfill: Backfill = {
  sql: [
    `INSERT INTO report_daily (report_seq, day, n)
      SELECT r.seq, o.created_at / ${DAY}, count(*) FROM report_occurrences o JOIN reports r ON r.id = o.report_id
      WHERE o.seq <= coalesce((SELECT position FROM rollup_cursors WHERE name = '${OCCURRENCES_CURSOR}'), 0)
      GROUP BY r.seq, 2`,
  ],
}
