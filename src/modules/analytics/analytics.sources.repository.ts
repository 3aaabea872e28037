import { sql } from 'drizzle-orm'
import { rowsOf, type Seam } from '../../db/client'
import { settledKeys } from '../../db/settled-keys'

/** An occurrence as the rollup reads it, with what its report says about it. */
export interface OccurrenceRow {
  seq: number
  projectId: string
  reportSeq: number | null
  reportNumber: number
  title: string
  description: string
  category: string
  errorType: string
  fingerprint: string
  label: string
  platform: string
  gameVersion: string
  playerId: string | null
  createdAt: number
  /** 1 when it filed its report (its report's oldest occurrence). */
  first: number
  /** 1 when the occurrence is a crash, not an error (reports/report-crash.ts). */
  crashed: number
}

/**
 * The occurrences the analytics rollup counts, read by cursor from ingest's rows with their reports'
 * (the SDK's sessions, performance snapshots and events come from sdk.cursors.repository.ts), as async
 * functions over the database seam: kept apart so the read can move to its owner's repository.
 */
export function createSourcesRepository({ db }: { db: Seam }) {
  return {
    /**
     * Up to `limit` occurrences after `after` (by seq) with their report's number, title, fingerprint,
     * label and category, and whether each filed its report. Joins the ingest and reports tables in one
     * statement: the rollup reads them in the same step that counts them.
     */
    occurrencesAfter: (after: number, limit: number) =>
      db.read(async (q) => {
        // Only occurrences no filing still in progress can precede (settled-keys.ts).
        const settled = await settledKeys(q, { table: 'report_occurrences', column: 'seq', as: sql`o.seq` })
        // Quoted aliases keep their case on PostgreSQL; `first` is a CASE, as NOT EXISTS is a boolean there.
        const rows = await rowsOf<OccurrenceRow>(q, sql`
      SELECT o.seq, o.project_id AS "projectId", r.seq AS "reportSeq", r.report_number AS "reportNumber", r.title, o.description, r.category,
        CASE WHEN o.error_type <> '' THEN o.error_type ELSE r.error_type END AS "errorType", r.fingerprint, r.grouping_label AS label,
        o.platform, o.game_version AS "gameVersion", o.player_id AS "playerId", o.created_at AS "createdAt", o.crash AS crashed,
        CASE WHEN EXISTS (SELECT 1 FROM report_occurrences e WHERE e.report_id = o.report_id AND e.seq < o.seq) THEN 0 ELSE 1 END AS first
      FROM report_occurrences o LEFT JOIN reports r ON r.id = o.report_id
      WHERE o.seq > ${after}${settled ? sql` AND ${settled}` : sql``} ORDER BY o.seq LIMIT ${limit}`)
        // PostgreSQL answers a raw int8 (created_at) as a string.
        return rows.map((r) => ({ ...r, createdAt: Number(r.createdAt), crashed: Number(r.crashed) }))
      }),
  }
}
