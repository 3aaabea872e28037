import { eq, sql } from 'drizzle-orm'
import { type Db, rawSqlite, type Seam } from '../../db/client'
import { similarTitleMatch } from './fts-query'
import { errorTypeMatches } from './search-filters'
import { createReportsSearchRepository, SIMILAR_LIMIT, similarTitlesQuery } from './reports.search.repository'
import { reports } from './reports.table'

export { similarTitlesQuery } from './reports.search.repository'

const ph = sql.placeholder

const statements = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  const similar = similarTitlesQuery(db, eq(reports.projectId, ph('projectId')), SIMILAR_LIMIT).prepare()
  // The project's distinct error types by a skip scan of the (project, error_type) index: one seek
  // per type rather than a read of every report that has one; at most 2,000 types.
  const distinctErrorTypes = rawSqlite(db).prepare<{ e: string }, [string]>(`
    WITH RECURSIVE t(e) AS (
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ?1 AND deleted_at IS NULL AND error_type > '')
      UNION ALL
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ?1 AND deleted_at IS NULL AND error_type > t.e) FROM t WHERE t.e IS NOT NULL LIMIT 2000
    ) SELECT e FROM t WHERE e IS NOT NULL`)
  return { similar, distinctErrorTypes }
}

function statementsFor(db: Db) {
  let st = statements.get(db)
  if (!st) {
    st = prepare(db)
    statements.set(db, st)
  }
  return st
}

/** A similar report as the API shows it. */
const similarView = (r: { reportNumber: number; title: string; status: string; priority: string; createdAt: Date }) => ({
  report_number: r.reportNumber,
  title: r.title,
  status: r.status,
  priority: r.priority,
  created_at: r.createdAt.toISOString(),
})

/** `GET /bugs/similar`: up to 10 live reports whose titles share significant words with `title`, best bm25 match first. */
export async function similarTo(db: Seam, projectId: string, title: string) {
  const match = similarTitleMatch(title)
  if (!match) return []
  return (await createReportsSearchRepository({ db }).similar(projectId, match)).map(similarView)
}

/**
 * `similarTo` for analytics' triage, which still reads synchronously; it goes when triage awaits
 * `similarTo`.
 */
export function similarReports(db: Db, projectId: string, title: string) {
  const match = similarTitleMatch(title)
  if (!match) return []
  return statementsFor(db).similar.all({ projectId, match }).map(similarView)
}

/** Of the project's error types `types`, those that answer `error:<name>` (search-filters.ts), at most 50. */
export const errorTypesIn = (types: string[], name: string): string[] => types.filter((e) => errorTypeMatches(e, name)).slice(0, 50)

/** The project's error types that answer `error:<name>`, read synchronously for `matchingReports` (ingest's merge); none when no live report has one. */
export function errorTypesNamed(db: Db, projectId: string, name: string): string[] {
  return errorTypesIn(
    statementsFor(db)
      .distinctErrorTypes.all(projectId)
      .map((r) => r.e),
    name,
  )
}

/** The project's error classes over live reports, most common first, at most 200. */
export async function errorTypeCounts(db: Seam, projectId: string) {
  return (await createReportsSearchRepository({ db }).errorTypeCounts(projectId)).map((r) => ({ error_type: r.errorType, count: r.count }))
}
