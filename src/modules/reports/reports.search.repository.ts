import { and, asc, count, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm'
import { onPostgres, preparedRows, type Query, rowsOf, type Seam } from '../../db/client'
import { similarTitleMatch } from './fts-query'
import { FACET } from './report-facets'
import { reportsFts } from './reports.fts'
import { reports } from './reports.table'
import { SEARCH_DOCUMENT_SQL, similarTitleTsquery, TITLE_DOCUMENT_SQL } from './search-tsquery'

/**
 * bm25 ranks the newest matches only, so a title made of common words costs a bounded walk of the
 * FTS doclist instead of scoring every match in a 1M-report project.
 */
const SIMILAR_CANDIDATES = 1000
const SIMILAR_LIMIT = 10

/** At most this many values of a facet kind are offered as filter choices. */
const MAX_FACET_VALUES = 500

/**
 * The project's distinct error types by a skip scan of the (project, error_type) index: one seek per
 * type rather than a read of every report that has one; at most 2,000 types. Every list request with
 * an `error:` filter asks (to expand its wildcards), so it is prepared once per connection.
 */
const errorTypesOf = preparedRows<{ e: string }>(
  () => sql`
    WITH RECURSIVE t(e, n) AS (
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ${sql.placeholder('projectId')} AND deleted_at IS NULL AND error_type > ''), 1
      UNION ALL
      SELECT (SELECT min(error_type) FROM reports WHERE project_id = ${sql.placeholder('projectId')} AND deleted_at IS NULL AND error_type > t.e), t.n + 1 FROM t WHERE t.e IS NOT NULL AND t.n < 2000
    ) SELECT e FROM t WHERE e IS NOT NULL`,
)

/**
 * The similar-titles query over the live reports `where` selects, for a title (`similarTitleMatch`):
 * the team's search and the public report form's suggestions (public/suggestions.service.ts), which
 * narrows it to public reports. Undefined when the title has no significant word.
 * SQLite: FTS5 over titles, best bm25 first. PostgreSQL: the reports' tsvector index, titles checked,
 * best ts_rank first (search-tsquery.ts).
 */
function similarTitlesQuery(q: Query, where: SQL, limit: number, title: string) {
  const columns = { seq: reports.seq, reportNumber: reports.reportNumber, title: reports.title, status: reports.status, priority: reports.priority, upvotes: reports.upvotes, createdAt: reports.createdAt }
  let candidates
  if (onPostgres(q)) {
    const tsq = similarTitleTsquery(title)
    if (!tsq) return undefined
    const query = sql`to_tsquery('simple', ${tsq})`
    candidates = q
      .select({ ...columns, score: sql<number>`-ts_rank(${sql.raw(TITLE_DOCUMENT_SQL)}, ${query})`.as('score') })
      .from(reports)
      .where(and(sql`${sql.raw(SEARCH_DOCUMENT_SQL)} @@ ${query}`, sql`${sql.raw(TITLE_DOCUMENT_SQL)} @@ ${query}`, isNull(reports.deletedAt), where))
      .orderBy(desc(reports.seq))
      .limit(SIMILAR_CANDIDATES)
      .as('candidates')
  } else {
    const match = similarTitleMatch(title)
    if (!match) return undefined
    candidates = q
      .select({ ...columns, score: sql<number>`bm25(${reportsFts})`.as('score') })
      .from(reportsFts)
      .innerJoin(reports, eq(reports.seq, reportsFts.rowid))
      .where(and(sql`${reportsFts} MATCH ${match}`, isNull(reports.deletedAt), where))
      .orderBy(desc(reportsFts.rowid))
      .limit(SIMILAR_CANDIDATES)
      .as('candidates')
  }
  return q
    .select({ reportNumber: candidates.reportNumber, title: candidates.title, status: candidates.status, priority: candidates.priority, upvotes: candidates.upvotes, createdAt: candidates.createdAt })
    .from(candidates)
    .orderBy(asc(candidates.score), desc(candidates.seq))
    .limit(limit)
}

/**
 * The search reads of reports (similar titles, error types, facet values) and the FTS merge step, as
 * async functions over the database seam. The skip scans are portable recursive SQL (a counter bounds
 * them: PostgreSQL allows no LIMIT in a recursive term); the merge step is FTS5's (SQLite only).
 */
export function createReportsSearchRepository({ db }: { db: Seam }) {
  return {
    /** Up to 10 live reports of the project whose titles share significant words with `title`, best match first. */
    similar: (projectId: string, title: string) => db.read(async (q) => (await similarTitlesQuery(q, eq(reports.projectId, projectId), SIMILAR_LIMIT, title)) ?? []),

    /** The project's error classes over live reports with their counts, most common first, at most 200. */
    errorTypeCounts: (projectId: string) => {
      const n = count()
      return db.read((q) =>
        q
          .select({ errorType: reports.errorType, count: n })
          .from(reports)
          // `> ''` rather than `<> ''`: a range on the (project, error_type) index, read without touching rows.
          .where(and(eq(reports.projectId, projectId), isNull(reports.deletedAt), gt(reports.errorType, '')))
          .groupBy(reports.errorType)
          .orderBy(desc(n), asc(reports.errorType))
          .limit(200),
      )
    },

    /** The project's distinct error types, by name (errorTypesOf). */
    distinctErrorTypes: async (projectId: string): Promise<string[]> => (await db.read((q) => errorTypesOf(q, { projectId }))).map((r) => r.e),

    /** The distinct values of a facet kind in the project, by name, at most 500: a skip scan of the facet key. */
    facetValues: async (projectId: string, kind: keyof typeof FACET): Promise<string[]> => {
      const k = FACET[kind]
      const rows = await db.read((q) =>
        rowsOf<{ v: string }>(
          q,
          sql`
          WITH RECURSIVE t(v, n) AS (
            SELECT (SELECT min(value) FROM report_facets WHERE project_id = ${projectId} AND kind = ${k}), 1
            UNION ALL
            SELECT (SELECT min(value) FROM report_facets WHERE project_id = ${projectId} AND kind = ${k} AND value > t.v), t.n + 1 FROM t WHERE t.v IS NOT NULL AND t.n < ${MAX_FACET_VALUES}
          ) SELECT v FROM t WHERE v IS NOT NULL`,
        ),
      )
      return rows.map((r) => r.v)
    },

    /**
     * One background merge step of reports_fts, writing at most `pages` pages, in a write of its own.
     * Returns whether it did work: FTS5's documented signal is two or more changed rows, counted by the
     * writer connection's total_changes() after the commit (FTS5 writes its structure record at commit;
     * another write landing between the two only costs one more step).
     */
    mergeStep: async (pages: number): Promise<boolean> => {
      const changes = async (q: Query) => (await q.all<{ n: number }>(sql`SELECT total_changes() AS n`))[0]!.n
      const before = await db.write(async (q) => {
        const n = await changes(q)
        await q.run(sql`INSERT INTO reports_fts(reports_fts, rank) VALUES ('merge', ${sql.raw(String(Math.max(1, Math.floor(pages))))})`)
        return n
      })
      return (await db.write(changes)) - before >= 2
    },

    /** Up to `limit` live reports among those `where` selects whose titles resemble `title` (the public form's suggestions narrow it to public reports). */
    similarWhere: (where: SQL, title: string, limit: number) => db.read(async (q) => (await similarTitlesQuery(q, where, limit, title)) ?? []),
  }
}
