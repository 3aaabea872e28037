import { and, eq, sql } from 'drizzle-orm'
import { type Db, onPostgres, preparedPerConnection } from '../../db/client'
import { FACET, type FacetKind, reportFacets } from './report-facets'
import { FACET_SET_KINDS } from './report-facets.pg'
import { reportsFts } from './reports.fts'
import { COUNT_CAP, countAll, tsMatches } from './reports.list-shape'
import { reports } from './reports.table'

// Counts the list asks for besides counting a page's matches (reports.list.repository.ts): estimates
// that pick which key drives, and PostgreSQL's total of a label-only list.

const ph = sql.placeholder

/** Capped counts of one facet key and of one word search alone, to pick which of the two drives a list that has both. */
function buildEstimates(db: Db) {
  const facet = db
    .select({ n: countAll() })
    .from(
      db
        .select({ one: sql`1` })
        .from(reportFacets)
        .where(and(eq(reportFacets.projectId, ph('projectId')), eq(reportFacets.kind, ph('kind')), eq(reportFacets.value, ph('value'))))
        .limit(COUNT_CAP + 1)
        .as('f'),
    )
    .prepare()
  // Over the whole server's index (it has no project): an estimate, enough to compare.
  const matching = onPostgres(db) ? db.select({ one: sql`1` }).from(reports).where(tsMatches) : db.select({ one: sql`1` }).from(reportsFts).where(sql`${reportsFts} MATCH ${ph('match')}`)
  const words = db
    .select({ n: countAll() })
    .from(matching.limit(COUNT_CAP + 1).as('w'))
    .prepare()
  return { facet, words }
}

const estimateStatements = preparedPerConnection(buildEstimates)

/** What decides which of a facet key and a word search drives a list that has both (reports.list.ts). */
export type FacetAndWords =
  /** PostgreSQL, a facet its sets hold: one GIN index holds the facet and the words (report-facets.pg.ts) and intersects them whichever is rarer, so the facet's set drives. */
  | { oneIndex: true }
  /** How many reports the facet key holds in the project and how many the words match on the whole server (an upper bound of the project's), each counted up to one past the cap. */
  | { oneIndex: false; inFacet: number; inWords: number }

/**
 * How a facet and words meet. Counting a common word alone took ~50 ms at 1M reports on PostgreSQL
 * (a scan of the reports until 10,001 match), more than the intersection it would choose.
 */
export async function facetAndWordCounts(db: Db, projectId: string, facet: { kind: FacetKind; value: string }, words: Words): Promise<FacetAndWords> {
  if (onPostgres(db) && (FACET_SET_KINDS as readonly number[]).includes(FACET[facet.kind])) return { oneIndex: true }
  const st = estimateStatements(db)
  const inFacet = (await st.facet.execute({ projectId, kind: FACET[facet.kind], value: facet.value }))[0]?.n ?? 0
  const inWords = (await st.words.execute({ ...words }))[0]?.n ?? 0
  return { oneIndex: false, inFacet, inWords }
}

/** A words search in both engines' forms: the FTS5 MATCH expression and the tsquery text (fts-query.ts, search-tsquery.ts). */
export interface Words {
  match: string
  tsMatch: string
}

/**
 * PostgreSQL's total for a list filtered by one label and nothing else. Counting the matches as the
 * page finds them (each of the label's rows probing its report for `deleted_at` and the project)
 * took 10,001 probes of `reports` at 1M reports, ~47 ms; the label's rows are counted from its
 * (label_id, report_seq) key alone instead (~3 ms), less those on deleted reports, found from the
 * partial index of deleted reports below (a trash is small beside a label; with 5% of 1M reports
 * deleted and not yet vacuumed the two keys merge in 35–80 ms).
 *
 * A label is only ever on reports of its own project (labels.service checks both), so the first of
 * its rows whose report is in the project stands for the project: another project's label counts 0,
 * as its page lists nothing. The count stops one past COUNT_CAP, like every filtered total.
 */
export function labelOnlyCount(db: Db) {
  const label = ph('label')
  const pastCap = sql.raw(String(COUNT_CAP + 1))
  return db
    .select({ n: sql<number>`least(w.n - g.n, ${pastCap})`.mapWith(Number) })
    .from(sql`(SELECT 1 FROM report_labels l JOIN reports r ON r.seq = l.report_seq WHERE l.label_id = ${label} AND r.project_id = ${ph('projectId')} LIMIT 1) AS own`)
    .innerJoin(sql`LATERAL (SELECT count(*) AS n FROM report_labels dl JOIN reports dr ON dr.seq = dl.report_seq WHERE dl.label_id = ${label} AND dr.deleted_at IS NOT NULL) AS g`, sql`true`)
    .innerJoin(sql`LATERAL (SELECT count(*) AS n FROM (SELECT 1 FROM report_labels al WHERE al.label_id = ${label} LIMIT g.n + ${pastCap}) a) AS w`, sql`true`)
    .prepare()
}
