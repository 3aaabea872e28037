import { sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { recountReportDaily } from '../analytics/report-daily'
import { addFacetsOfOccurrences } from '../reports/report-facets'
import { MAX_VERSIONS } from './versions'

/**
 * Counts a report's occurrences again from its rows, after split or merge moved some: how many, its
 * distinct players (report_players rebuilt), first and last seen, first and last known version, and
 * its versions most recently seen first; with them the list's facets it gained and its occurrences per
 * day. Submissions keep these incrementally (ingest.service.ts, the analytics rollup).
 */
export function recountReport(tx: Tx, report: { id: string; seq: number; projectId: string }): void {
  addFacetsOfOccurrences(tx, report)
  recountReportDaily(tx, report)
  tx.run(sql`DELETE FROM report_players WHERE report_seq = ${report.seq}`)
  tx.run(sql`INSERT OR IGNORE INTO report_players (report_seq, player_id)
    SELECT ${report.seq}, player_id FROM report_occurrences WHERE report_id = ${report.id} AND player_id IS NOT NULL AND player_id <> ''`)
  tx.run(sql`UPDATE reports SET
    occurrence_count = (SELECT count(*) FROM report_occurrences o WHERE o.report_id = ${report.id}),
    player_count = (SELECT count(*) FROM report_players p WHERE p.report_seq = ${report.seq}),
    first_seen = (SELECT min(o.created_at) FROM report_occurrences o WHERE o.report_id = ${report.id}),
    last_seen = (SELECT max(o.created_at) FROM report_occurrences o WHERE o.report_id = ${report.id}),
    first_version = coalesce((SELECT o.game_version FROM report_occurrences o WHERE o.report_id = ${report.id} AND o.game_version <> '' ORDER BY o.seq LIMIT 1), ''),
    last_version = coalesce((SELECT o.game_version FROM report_occurrences o WHERE o.report_id = ${report.id} AND o.game_version <> '' ORDER BY o.seq DESC LIMIT 1), ''),
    versions = (SELECT json_group_array(v) FROM (SELECT o.game_version AS v FROM report_occurrences o WHERE o.report_id = ${report.id} AND o.game_version <> ''
      GROUP BY o.game_version ORDER BY max(o.seq) DESC LIMIT ${sql.raw(String(MAX_VERSIONS))}))
    WHERE seq = ${report.seq}`)
}
