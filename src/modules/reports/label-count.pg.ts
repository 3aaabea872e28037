import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'

/**
 * PostgreSQL's total for a list filtered by one label and nothing else. Counting the matches as the
 * page finds them (each of the label's rows probing its report for `deleted_at` and the project)
 * took 10,001 probes of `reports` at 1M reports, ~47 ms; the label's rows are counted from its
 * (label_id, report_seq) key alone instead (~3 ms), less those on deleted reports, found from the
 * partial index of deleted reports below (a trash is small beside a label; with 5% of 1M reports
 * deleted the two keys merge in ~35 ms, still under the probes).
 *
 * A label is only ever on reports of its own project (labels.service checks both), so the first of
 * its rows whose report is in the project stands for the project: another project's label counts 0,
 * as its page lists nothing. `cap`: the count stops one past it, like every filtered total.
 */
export function labelOnlyCount(db: Db, cap: number) {
  const label = sql.placeholder('label')
  return db
    .select({ n: sql<number>`least(w.n - g.n, ${sql.raw(String(cap + 1))})`.mapWith(Number) })
    .from(sql`(SELECT 1 FROM report_labels l JOIN reports r ON r.seq = l.report_seq WHERE l.label_id = ${label} AND r.project_id = ${sql.placeholder('projectId')} LIMIT 1) AS own`)
    .innerJoin(sql`LATERAL (SELECT count(*) AS n FROM report_labels dl JOIN reports dr ON dr.seq = dl.report_seq WHERE dl.label_id = ${label} AND dr.deleted_at IS NOT NULL) AS g`, sql`true`)
    .innerJoin(sql`LATERAL (SELECT count(*) AS n FROM (SELECT 1 FROM report_labels al WHERE al.label_id = ${label} LIMIT g.n + ${sql.raw(String(cap + 1))}) a) AS w`, sql`true`)
    .prepare()
}

/** The deleted reports by seq, for `labelOnlyCount` (PostgreSQL only: SQLite probes its rows in ~1 µs each). */
export const deletedReportsPgSql = ['CREATE INDEX IF NOT EXISTS reports_deleted_seq_idx ON reports (seq) WHERE deleted_at IS NOT NULL']
