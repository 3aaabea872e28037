import { type SQL, sql } from 'drizzle-orm'
import { execute, type Seam } from '../../db/client'
import { COLUMN_FACETS, FACET } from './report-facets'

/** A report as its facet rows name it. */
interface ReportRef {
  id: string
  seq: number
  projectId: string
}

/** A tag row (alias `t`) as its facet value, `key=value` (report-tags.ts). */
const TAG_VALUE = sql.raw(`t.key || '=' || t.value`)

/** `(kind, value, report_id)` of every facet of the occurrences `where` selects (alias `o`), for an INSERT or DELETE … SELECT. */
const facetRowsOf = (where: SQL) => sql`
  SELECT ${sql.raw(String(FACET.version))} AS kind, o.game_version AS value, o.report_id FROM report_occurrences o WHERE ${where} AND o.game_version <> ''
  ${sql.join(
    COLUMN_FACETS.map(([kind, name]) => {
      const column = sql.raw(`o.${name}`)
      return sql`UNION SELECT ${sql.raw(String(FACET[kind]))}, ${column}, o.report_id FROM report_occurrences o WHERE ${where} AND ${column} <> ''`
    }),
    sql` `,
  )}
  UNION SELECT ${sql.raw(String(FACET.player))}, o.player_id, o.report_id FROM report_occurrences o WHERE ${where} AND o.player_id <> ''
  UNION SELECT ${sql.raw(String(FACET.screenshot))}, '', o.report_id FROM report_occurrences o WHERE ${where} AND o.screenshot_key IS NOT NULL
  UNION SELECT ${sql.raw(String(FACET.tag))}, ${TAG_VALUE}, o.report_id FROM report_occurrences o JOIN occurrence_tags t ON t.occurrence_id = o.id WHERE ${where}`

/**
 * `WITH ids(id) AS (VALUES …)`: the ids bound once each, read by `IN (SELECT id FROM ids)` in every arm
 * of facetRowsOf (portable, unlike a JSON array read with json_each; a merge names up to 10,000).
 */
const withIds = (ids: string[]) => sql`WITH ids(id) AS (VALUES ${sql.join(
  ids.map((id) => sql`(${id})`),
  sql`, `,
)}) `

/**
 * The writes of report_facets (report-facets.ts) that split, merge and delete make, as async
 * functions over the database seam; the ingest path adds a submission's facets itself. Portable SQL:
 * ON CONFLICT DO NOTHING (after `WHERE true`: SQLite would read the ON of an INSERT … SELECT's last
 * FROM as a join's) and bound id lists.
 */
export function createReportFacetsRepository({ db }: { db: Seam }) {
  return {
    /** Gives `report` the facets of all its occurrences (split and merge moved some onto it). */
    addOfOccurrences: (report: ReportRef) =>
      db.write((q) =>
        execute(
          q,
          sql`INSERT INTO report_facets (project_id, kind, value, report_seq)
            SELECT ${report.projectId}, f.kind, f.value, CAST(${report.seq} AS integer) FROM (${facetRowsOf(sql`o.report_id = ${report.id}`)}) f
            WHERE true ON CONFLICT DO NOTHING`,
        ),
      ),

    /**
     * Takes from `report` the facets only the occurrences `movedIds` had (split moved them out): each
     * value they carried stays when another of its occurrences still has it. Key lookups only, as the
     * values are known; a scan of the project's facets would be needed otherwise.
     */
    dropLeftWith: (report: ReportRef, movedIds: string[]) => {
      if (movedIds.length === 0) return Promise.resolve()
      const columnWhens = COLUMN_FACETS.map(([kind, column]) => `WHEN ${FACET[kind]} THEN k.${column}`).join(' ')
      const column = sql.raw(`CASE f.kind WHEN ${FACET.version} THEN k.game_version ${columnWhens} WHEN ${FACET.player} THEN k.player_id ELSE '' END`)
      return db.write((q) =>
        execute(
          q,
          sql`${withIds(movedIds)}DELETE FROM report_facets AS f
            WHERE f.project_id = ${report.projectId} AND f.report_seq = ${report.seq}
              AND (f.kind, f.value) IN (SELECT m.kind, m.value FROM (${facetRowsOf(sql`o.id IN (SELECT id FROM ids)`)}) m)
              AND NOT EXISTS (SELECT 1 FROM report_occurrences k WHERE k.report_id = ${report.id}
                AND (f.kind <> ${FACET.screenshot} OR k.screenshot_key IS NOT NULL)
                AND (f.kind <> ${FACET.tag} AND f.value = ${column}
                  OR f.kind = ${FACET.tag} AND EXISTS (SELECT 1 FROM occurrence_tags t WHERE t.occurrence_id = k.id AND f.value = ${TAG_VALUE})))`,
        ),
      )
    },

    /**
     * Takes every facet of reports that are being deleted (soft delete, merged into another), so the
     * table only ever holds live reports: a facet-only list is then counted from the key alone. Key
     * lookups: the values come from the reports' occurrences, still in place when this runs.
     */
    dropOfReports: (projectId: string, reportIds: string[]) => {
      if (reportIds.length === 0) return Promise.resolve()
      return db.write((q) =>
        execute(
          q,
          sql`${withIds(reportIds)}DELETE FROM report_facets WHERE project_id = ${projectId} AND (kind, value, report_seq) IN (
            SELECT f.kind, f.value, r.seq FROM (${facetRowsOf(sql`o.report_id IN (SELECT id FROM ids)`)}) f JOIN reports r ON r.id = f.report_id)`,
        ),
      )
    },
  }
}
