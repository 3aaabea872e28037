import { and, asc, desc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm'
import type { Query, Seam } from '../../db/client'
import { FACET } from './report-facets'
import { reportsFts } from './reports.fts'
import { reports } from './reports.table'

/**
 * bm25 ranks the newest matches only, so a title made of common words costs a bounded walk of the
 * FTS doclist instead of scoring every match in a 1M-report project.
 */
const SIMILAR_CANDIDATES = 1000
const SIMILAR_LIMIT = 10

/** At most this many values of a facet kind are offered as filter choices. */
const MAX_FACET_VALUES = 500

/**
 * The similar-titles query over the live reports `where` selects, for a title match (`similarTitleMatch`):
 * the team's search and the public report form's suggestions (public/suggestions.service.ts), which
 * narrows it to public reports.
 */
function similarTitlesQuery(q: Query, where: SQL, limit: number, match: string) {
  const candidates = q
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
    .where(and(sql`${reportsFts} MATCH ${match}`, isNull(reports.deletedAt), where))
    .orderBy(desc(reportsFts.rowid))
    .limit(SIMILAR_CANDIDATES)
    .as('candidates')
  return q
    .select({ reportNumber: candidates.reportNumber, title: candidates.title, status: candidates.status, priority: candidates.priority, upvotes: candidates.upvotes, createdAt: candidates.createdAt })
    .from(candidates)
    .orderBy(asc(candidates.score), desc(candidates.seq))
    .limit(limit)
}

/**
 * The search reads of reports (FTS5, error types, facet values) and the FTS merge step, as async
 * functions over the database seam. Their raw SQL is SQLite's (FTS5, recursive skip scans).
 */
export function createReportsSearchRepository({ db }: { db: Seam }) {
  return {
    /** Up to 10 live reports of the project whose titles match `match`, best bm25 match first. */
    similar: (projectId: string, match: string) => db.read((q) => similarTitlesQuery(q, eq(reports.projectId, projectId), SIMILAR_LIMIT, match)),

    /** The project's error classes over live reports with their counts, most common first, at most 200. */
    errorTypeCounts: (projectId: string) => {
      const n = sql<number>`count(*)`
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

    /**
     * The project's distinct error types by a skip scan of the (project, error_type) index: one seek
     * per type rather than a read of every report that has one; at most 2,000 types.
     */
    distinctErrorTypes: async (projectId: string): Promise<string[]> => {
      const rows = await db.read((q) =>
        q.all<{ e: string }>(sql`
          WITH RECURSIVE t(e) AS (
            SELECT (SELECT min(error_type) FROM reports WHERE project_id = ${projectId} AND deleted_at IS NULL AND error_type > '')
            UNION ALL
            SELECT (SELECT min(error_type) FROM reports WHERE project_id = ${projectId} AND deleted_at IS NULL AND error_type > t.e) FROM t WHERE t.e IS NOT NULL LIMIT 2000
          ) SELECT e FROM t WHERE e IS NOT NULL`),
      )
      return rows.map((r) => r.e)
    },

    /** The distinct values of a facet kind in the project, by name, at most 500: a skip scan of the facet key. */
    facetValues: async (projectId: string, kind: keyof typeof FACET): Promise<string[]> => {
      const k = FACET[kind]
      const rows = await db.read((q) =>
        q.all<{ v: string }>(sql`
          WITH RECURSIVE t(v) AS (
            SELECT (SELECT min(value) FROM report_facets WHERE project_id = ${projectId} AND kind = ${k})
            UNION ALL
            SELECT (SELECT min(value) FROM report_facets WHERE project_id = ${projectId} AND kind = ${k} AND value > t.v) FROM t WHERE t.v IS NOT NULL LIMIT ${MAX_FACET_VALUES}
          ) SELECT v FROM t WHERE v IS NOT NULL`),
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

    /** Up to `limit` live reports among those `where` selects whose titles match `match` (the public form's suggestions narrow it to public reports). */
    similarWhere: (where: SQL, match: string, limit: number) => db.read((q) => similarTitlesQuery(q, where, limit, match)),
  }
}
