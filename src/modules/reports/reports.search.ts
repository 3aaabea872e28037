import { and, asc, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm'
import { type Db, rawSqlite } from '../../db/client'
import { similarTitleMatch } from './fts-query'
import { errorTypeMatches } from './search-filters'
import { reportsFts } from './reports.fts'
import { reports } from './reports.table'

const ph = sql.placeholder

/**
 * bm25 ranks the newest matches only, so a title made of common words costs a bounded walk of the
 * FTS doclist instead of scoring every match in a 1M-report project.
 */
export const SIMILAR_CANDIDATES = 1000
export const SIMILAR_LIMIT = 10

const statements = new WeakMap<Db, ReturnType<typeof prepare>>()

/**
 * The similar-titles query over the live reports `where` selects, for a title match bound as the
 * placeholder `match` (`similarTitleMatch`): the team's search and the public report form's
 * suggestions (public/suggestions.service.ts), which narrows it to public reports.
 */
export function similarTitlesQuery(db: Db, where: SQL, limit: number) {
  const candidates = db
    .select({
      seq: reports.seq,
      reportNumber: reports.reportNumber,
      title: reports.title,
      status: reports.status,
      priority: reports.priority,
      upvotes: reports.upvotes,
      createdAt: reports.createdAt,
      score: sql<number>`bm25(${reportsFts})`.as('score'),
    })
    .from(reportsFts)
    .innerJoin(reports, eq(reports.seq, reportsFts.rowid))
    .where(and(sql`${reportsFts} MATCH ${ph('match')}`, isNull(reports.deletedAt), where))
    .orderBy(desc(reportsFts.rowid))
    .limit(SIMILAR_CANDIDATES)
    .as('candidates')
  return db
    .select({ reportNumber: candidates.reportNumber, title: candidates.title, status: candidates.status, priority: candidates.priority, upvotes: candidates.upvotes, createdAt: candidates.createdAt })
    .from(candidates)
    .orderBy(asc(candidates.score), desc(candidates.seq))
    .limit(limit)
}

function prepare(db: Db) {
  const similar = similarTitlesQuery(db, eq(reports.projectId, ph('projectId')), SIMILAR_LIMIT).prepare()
  const count = sql<number>`count(*)`
  const errorTypes = db
    .select({ errorType: reports.errorType, count })
    .from(reports)
    // `> ''` rather than `<> ''`: a range on the (project, error_type) index, read without touching rows.
    .where(and(eq(reports.projectId, ph('projectId')), isNull(reports.deletedAt), gt(reports.errorType, '')))
    .groupBy(reports.errorType)
    .orderBy(desc(count), asc(reports.errorType))
    .limit(200)
    .prepare()
  // The project's distinct error types by a skip scan of the (project, error_type) index: one seek
  // per type rather than a read of every report that has one; at most 2,000 types.
  const distinctErrorTypes = rawSqlite(db).prepare<{ e: string }, [string]>(`
    WITH RECURSIVE t(e) AS (
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ?1 AND deleted_at IS NULL AND error_type > '')
      UNION ALL
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ?1 AND deleted_at IS NULL AND error_type > t.e) FROM t WHERE t.e IS NOT NULL LIMIT 2000
    ) SELECT e FROM t WHERE e IS NOT NULL`)
  return { similar, errorTypes, distinctErrorTypes }
}

function statementsFor(db: Db) {
  let st = statements.get(db)
  if (!st) {
    st = prepare(db)
    statements.set(db, st)
  }
  return st
}

/** Up to 10 live reports whose titles share significant words with `title`, best bm25 match first. */
export function similarReports(db: Db, projectId: string, title: string) {
  const match = similarTitleMatch(title)
  if (!match) return []
  return statementsFor(db)
    .similar.all({ projectId, match })
    .map((r) => ({ report_number: r.reportNumber, title: r.title, status: r.status, priority: r.priority, created_at: r.createdAt.toISOString() }))
}

/** The project's error types that answer `error:<name>` (search-filters.ts), at most 50; none when no live report has one. */
export function errorTypesNamed(db: Db, projectId: string, name: string): string[] {
  return statementsFor(db)
    .distinctErrorTypes.all(projectId)
    .map((r) => r.e)
    .filter((e) => errorTypeMatches(e, name))
    .slice(0, 50)
}

/** The project's error classes over live reports, most common first, at most 200. */
export function errorTypeCounts(db: Db, projectId: string) {
  return statementsFor(db)
    .errorTypes.all({ projectId })
    .map((r) => ({ error_type: r.errorType, count: r.count }))
}
