import { and, asc, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { alias, type SelectedFields } from 'drizzle-orm/sqlite-core'
import { type Db, firstColumnOf, onPostgres, preparedPerConnection, type Seam } from '../../db/client'
import { inJsonList } from '../../db/portable-sql'
import { FACET, type FacetKind, reportFacets } from './report-facets'
import { FACET_SET_KINDS, reportFacetSets } from './report-facets.pg'
import { facetAndWordCounts, labelOnlyCount, type Words } from './reports.list-counts.repository'
import { COUNT_CAP, countAll, filtersOnly, keyOnly, type ListSort, type Shape, tsMatches } from './reports.list-shape'
import { reportAdditions } from './report-additions'
import { reportsFts } from './reports.fts'
import { reports } from './reports.table'
import { listColumns } from './reports.views'
import { escalatingIds, trendParams, trendScores } from './report-trend'

/** Statuses that count as done: a done blocker no longer blocks, a done report is never overdue. */
const DONE_STATUSES = sql.raw(`('resolved','closed','wont_fix')`)

const ph = sql.placeholder
/** The trending score of the row's report, 0 without events in the window (sort=trending joins `tr`). */
const trendScore = sql`coalesce(tr.score, 0)`
const driver = alias(reportFacets, 'f')
const kindOf = (k: FacetKind) => sql.raw(String(FACET[k]))


/** The seqs of the project's reports that match the words, on PostgreSQL (the FTS rowid set's counterpart). */
const tsMatchSet = sql`(SELECT seq FROM reports WHERE project_id = ${ph('projectId')} AND ${tsMatches})`

/** A report's error type among the JSON array of names in placeholder `name`. */
const errorTypeIn = (pg: boolean, name: string) => inJsonList(pg, reports.errorType, ph(name))

/**
 * A probe of one facet key for the row whose seq is `seq`. `each` (PostgreSQL only, see statementsFor): kept a probe per row
 * (`OFFSET 0` stops its planner from turning the EXISTS into a join that reads the whole key), for
 * the few rows of a rare word (Shape.probeFacets).
 */
const facetProbe = (kind: FacetKind, i: number, seq: SQL | typeof reports.seq | typeof reportsFts.rowid | typeof driver.reportSeq, each = false) =>
  sql`EXISTS (SELECT 1 FROM report_facets WHERE project_id = ${ph('projectId')} AND kind = ${kindOf(kind)} AND value = ${ph(`facet${i}`)} AND report_seq = ${seq}${each ? sql` OFFSET 0` : sql``})`

/**
 * A driving facet's key walk, newest first, with the other facets and the set of word matches (unary
 * `+`: as a key it would make every word match drive instead) checked on it: the seqs of reports
 * that pass every key check. A LIMIT (of no consequence: Drizzle leaves out `LIMIT -1`) keeps it a
 * co-routine that SQLite does not flatten into the join, so those checks run before a report's row is
 * read (flattened, SQLite defers subquery checks until after the join: 64 ms rather than 36 for the
 * issue's example query at 1M reports), and its order still serves "newest first" without a sort.
 */
function keyWalk(db: Db, s: Shape) {
  const pg = onPostgres(db)
  const words = (seq: SQL | typeof driver.reportSeq) =>
    s.q === 'matchSet' ? [pg ? sql`${seq} IN ${tsMatchSet}` : sql`+${seq} IN (SELECT rowid FROM ${reportsFts} WHERE ${reportsFts} MATCH ${ph('match')})`] : []
  const inSet = pg ? setFacets(s) : []
  if (inSet.length > 0) {
    // PostgreSQL, facets the sets hold: their GIN index intersects them, and the words with them on the
    // set's copy of the document (report-facets.pg.ts); the other facets are probed.
    const valueId = (i: number) => sql`(SELECT id FROM report_facet_values WHERE project_id = ${ph('projectId')} AND kind = ${kindOf(s.facets[i]!)} AND value = ${ph(`facet${i}`)})`
    const checks = [
      sql`ids @> ARRAY[${sql.join(inSet.map(valueId), sql`, `)}]::bigint[]`,
      ...s.facets.flatMap((k, i) => (inSet.includes(i) ? [] : [facetProbe(k, i, sql`${reportFacetSets.reportSeq}`)])),
      ...(s.q === 'matchSet' ? [sql`doc @@ to_tsquery('simple', ${ph('tsMatch')})`] : []),
    ]
    return db.select({ seq: reportFacetSets.reportSeq }).from(reportFacetSets).where(and(...checks)).orderBy(desc(reportFacetSets.reportSeq)).limit(Number.MAX_SAFE_INTEGER).as('k')
  }
  const checks = [
    eq(driver.projectId, ph('projectId')),
    sql`${driver.kind} = ${kindOf(s.facets[0]!)}`,
    eq(driver.value, ph('facet0')),
    ...s.facets.slice(1).map((k, i) => facetProbe(k, i + 1, driver.reportSeq)),
    ...words(driver.reportSeq),
  ]
  return db.select({ seq: driver.reportSeq }).from(driver).where(and(...checks)).orderBy(desc(driver.reportSeq)).limit(Number.MAX_SAFE_INTEGER).as('k')
}

/**
 * The facets (by index) that PostgreSQL's facet sets answer for a facet-driven shape: all of the kinds
 * the sets hold, when one of them drives (a player drives by its own key) and there are two or more of
 * them, or words to intersect with it. A single facet alone walks its own key, newest first.
 */
function setFacets(s: Shape): number[] {
  const inSet = s.facets.flatMap((k, i) => ((FACET_SET_KINDS as readonly number[]).includes(FACET[k]) ? [i] : []))
  return inSet[0] === 0 && (inSet.length >= 2 || s.q === 'matchSet') ? inSet : []
}

type KeyWalk = ReturnType<typeof keyWalk>

/**
 * PostgreSQL's label filter: the label's (label_id, report_seq) key joined, so it drives newest first
 * and each report is probed by seq. As `seq IN (…)` the planner merged the whole project's index
 * against the key (170,000 index rows per worker for a label on 2% of 1M reports, 1.3 s).
 */
const labelKey = { table: sql`report_labels l`, on: sql`l.report_seq = ${reports.seq} AND l.label_id = ${ph('label')}`, seq: sql<number>`l.report_seq` }

/** The shape's filters; `pg`: in PostgreSQL's forms (no FTS table, no json_each, no index hints). */
function conditions(s: Shape, pg: boolean): SQL[] {
  // With a label or a facet the key drives (few rows compared to the project, or newest first);
  // `+project_id` keeps SQLite from walking a project index and probing every row.
  const project = (s.label || s.drive) && !pg ? sql`+${reports.projectId} = ${ph('projectId')}` : eq(reports.projectId, ph('projectId'))
  const c: SQL[] = [project, isNull(reports.deletedAt)]
  if (s.status) c.push(eq(reports.status, ph('status')))
  // By rank, so the (status, priority_rank) and priority indexes serve the filter.
  if (s.priority) c.push(eq(reports.priorityRank, ph('priorityRank')))
  if (s.category) c.push(eq(reports.category, ph('category')))
  if (s.assignee === 'id') c.push(eq(reports.assignedTo, ph('assignedTo')))
  if (s.assignee === 'unassigned' || s.unassigned) c.push(isNull(reports.assignedTo))
  // On PostgreSQL the label's key is joined instead (labelKey).
  if (s.label && !pg) c.push(sql`${reports.seq} IN (SELECT report_seq FROM report_labels WHERE label_id = ${ph('label')})`)
  if (s.source) c.push(eq(reports.source, ph('source')))
  if (s.errorType) c.push(eq(reports.errorType, ph('errorType')))
  s.errors.forEach((n, i) => c.push(n === 1 ? eq(reports.errorType, ph(`error${i}`)) : errorTypeIn(pg, `error${i}`)))
  for (let i = 0; i < s.fingerprints; i++) c.push(eq(reports.fingerprint, ph(`fingerprint${i}`)))
  if (s.regression) c.push(sql`${reports.regressedInVersion} IS NOT NULL`)
  if (s.escalating) c.push(sql`${reports.id} IN (${escalatingIds(sql`${ph('projectId')}`, trendParams)})`)
  // Under a driving facet, its walk checks the facets (keyWalk); otherwise each is probed on the
  // driving seq (the FTS rowid, or the report's).
  if (s.drive !== 'facet') s.facets.forEach((kind, i) => c.push(facetProbe(kind, i, s.q === 'match' && !pg ? reportsFts.rowid : reports.seq, s.probeFacets)))
  if (s.blocked) {
    c.push(
      sql`${reports.id} IN (SELECT d.blocked_id FROM report_dependencies d JOIN reports b ON b.id = d.blocker_id WHERE d.project_id = ${ph('projectId')} AND b.deleted_at IS NULL AND b.status NOT IN ${DONE_STATUSES})`,
    )
  }
  if (s.overdue) c.push(sql`${reports.dueDate} < ${ph('now')} AND ${reports.status} NOT IN ${DONE_STATUSES}`)
  if (s.customField) c.push(sql`${reports.id} IN (SELECT report_id FROM custom_field_values WHERE field_id = ${ph('cfField')} AND text_value = ${ph('cfOption')})`)
  if (s.sla) c.push(sql`${reports.id} IN (SELECT report_id FROM report_sla WHERE project_id = ${ph('projectId')} AND ${reportAdditions().slaStateSql(s.sla)})`)
  if (s.dated === 'yes') c.push(sql`${reports.dueDate} IS NOT NULL`)
  if (s.dated === 'no') c.push(sql`${reports.dueDate} IS NULL`)
  if (pg) {
    if (s.q === 'match' || (s.q === 'matchSet' && s.drive !== 'facet')) c.push(tsMatches)
    if (s.q === 'exclude') c.push(sql`${reports.seq} >= ${ph('minSeq')}`, sql`NOT ${tsMatches}`)
    return c
  }
  if (s.q === 'match') c.push(sql`${reportsFts} MATCH ${ph('match')}`)
  if (s.q === 'matchSet' && s.drive !== 'facet') c.push(sql`${reports.seq} IN (SELECT rowid FROM ${reportsFts} WHERE ${reportsFts} MATCH ${ph('match')})`)
  // Only `-terms`: rows at or above `minSeq` (a window of the newest, see `excludeWindow`) whose seq is
  // not among the matches in that window, so a common excluded word never means collecting all its matches.
  if (s.q === 'exclude') {
    c.push(sql`${reports.seq} >= ${ph('minSeq')}`)
    c.push(sql`${reports.seq} NOT IN (SELECT rowid FROM ${reportsFts} WHERE ${reportsFts} MATCH ${ph('match')} AND rowid >= ${ph('minSeq')})`)
  }
  return c
}

function ordering(s: Shape, k: KeyWalk | null, pg: boolean): SQL[] {
  // On PostgreSQL, `column + 0` sorts alike but matches no index: few word matches are then sorted.
  const by = <T extends SQLWrapper>(column: T) => (pg && s.fewMatches ? sql`${column} + 0` : column)
  // The driving key's order is the report's seq order: the FTS rowid, or the facet walk's seq.
  const seq = desc(by(reports.seq))
  const newest = k ? desc(k.seq) : s.q === 'match' && !pg ? desc(reportsFts.rowid) : s.label && pg ? desc(by(labelKey.seq)) : seq
  switch (s.sort) {
    case 'priority':
      return [asc(by(reports.priorityRank)), seq]
    case 'upvotes':
      return [desc(by(reports.upvotes)), seq]
    case 'updated':
      return [desc(by(reports.updatedAt)), seq]
    case 'last_seen':
      return [desc(by(reports.lastSeen)), seq]
    case 'occurrences':
      return [desc(by(reports.occurrenceCount)), seq]
    case 'players':
      return [desc(by(reports.playerCount)), seq]
    case 'trending':
      return [desc(trendScore), desc(reports.lastSeen), seq]
    case 'due':
      return s.dated === 'yes' ? [asc(by(reports.dueDate)), seq] : [newest]
    default:
      return [newest]
  }
}

/** The sorts by a column that PostgreSQL's covering index of sort keys holds (reports.sort-keys.pg.ts). */
const SORT_KEY_SORTS: readonly ListSort[] = ['priority', 'upvotes', 'updated', 'last_seen', 'occurrences', 'players']

/**
 * PostgreSQL, a facet-driven list sorted by a column: the page's seqs ordered first (the facet's
 * reports' sort keys read from the covering index, no report row), then the rows of those seqs only.
 * Read with its rows, every report of the facet was fetched to be sorted (4,029 rows for the busiest
 * player, ~30 ms at 1M reports).
 */
function sortedPage(db: Db, s: Shape, pageSeqs: SQLWrapper) {
  return db
    .select(listColumns)
    .from(reports)
    .where(inArray(reports.seq, pageSeqs as SQL))
    .orderBy(...ordering(s, null, true))
}

function buildStatements(db: Db, s: Shape) {
  const pg = onPostgres(db)
  const where = and(...conditions(s, pg))
  const k = s.drive === 'facet' ? keyWalk(db, s) : null
  // SQLite reorders inner joins: with a MATCH the FTS table becomes the outer loop; a facet walk is the
  // outer loop because `+project_id` leaves `reports` reachable by its key only.
  const from = <T extends SelectedFields>(columns: T) => {
    if (k) return db.select(columns).from(k).$dynamic().innerJoin(reports, eq(reports.seq, k.seq))
    const q = db.select(columns).from(reports).$dynamic()
    if (s.label && pg) return q.innerJoin(labelKey.table, labelKey.on)
    return s.q === 'match' && !pg ? q.innerJoin(reportsFts, eq(reportsFts.rowid, reports.seq)) : q
  }
  // Trending joins the scores of the project's reports with events in the window (one grouped range of
  // its (project_id, created_at) index); only the page orders by it.
  const page = (
    pg && k && SORT_KEY_SORTS.includes(s.sort)
      ? sortedPage(db, s, from({ seq: reports.seq }).where(where).orderBy(...ordering(s, k, pg)).limit(ph('limit')).offset(ph('offset')))
      : (s.sort === 'trending' ? from(listColumns).leftJoin(sql`(${trendScores(sql`${ph('projectId')}`, trendParams)}) AS tr`, sql`tr.report_id = ${reports.id}`) : from(listColumns))
          .where(where)
          .orderBy(...ordering(s, k, pg))
          .limit(ph('limit'))
          .offset(ph('offset'))
  ).prepare()
  // Ordered like the default page, so the walk uses the live-rows index (or the driving key's order).
  const newestFirst = ordering({ ...s, sort: 'newest' }, k, pg)
  // The matching seqs newest first, up to one past the cap: from the facet walk alone when it can say.
  const seqs =
    k && keyOnly(s)
      ? db.select({ seq: k.seq }).from(k).limit(COUNT_CAP + 1)
      : from({ seq: k ? k.seq : s.q === 'match' && !pg ? reportsFts.rowid : s.label && pg ? labelKey.seq : reports.seq })
          .where(where)
          .orderBy(...newestFirst)
          .limit(COUNT_CAP + 1)
  const count = pg && s.label && filtersOnly(s, ['label']) ? labelOnlyCount(db) : db.select({ n: countAll() }).from(seqs.as('matching')).prepare()
  // Every matching report up to the cap, for bulk actions by filter.
  const all = from({ id: reports.id, reportNumber: reports.reportNumber })
    .where(where)
    .orderBy(...newestFirst)
    .limit(COUNT_CAP + 1)
    .prepare()
  return { page, count, all, seqs: seqs.prepare() }
}


// The page by seqs, prepared once with the seqs as one JSON parameter.
const buildBySeq = (db: Db) =>
  db
    .select(listColumns)
    .from(reports)
    .where(inJsonList(onPostgres(db), reports.seq, ph('seqs'), 'integer'))
    .orderBy(desc(reports.seq))
    .prepare()
const bySeqStatements = preparedPerConnection(buildBySeq)

const nthNewestLive = (db: Db) =>
  db
    .select({ seq: reports.seq })
    .from(reports)
    .where(and(eq(reports.projectId, ph('projectId')), isNull(reports.deletedAt)))
    .orderBy(desc(reports.seq))
    .limit(1)
    .offset(ph('skip'))
    .prepare()
const nthStatements = preparedPerConnection(nthNewestLive)

/** Per connection, the statement sets of the shapes it has listed, by shape. */
const shapeStatements = preparedPerConnection(() => new Map<string, ReturnType<typeof buildStatements>>())

/** The prepared page, count and "all matching" statements of a shape, built once per connection. */
function statementsFor(db: Db, shape: Shape) {
  // SQLite's FTS table drives word searches whatever their count, and probes the facets of each match
  // already: one statement set for all of these.
  const s = (shape.fewMatches || shape.probeFacets) && !onPostgres(db) ? { ...shape, fewMatches: false, probeFacets: false } : shape
  const shapes = shapeStatements(db)
  const key = JSON.stringify(s)
  let set = shapes.get(key)
  if (!set) shapes.set(key, (set = buildStatements(db, s)))
  return set
}

/**
 * The list page's reads, as async functions over the database seam: the statements above, prepared
 * once per connection (the SQL and its index hints are the benchmarked ones), executed in `db.read`.
 */
export function createReportsListRepository({ db }: { db: Seam }) {
  return {
    /** A page of the shape's matches in its sort order. */
    page: (s: Shape, params: Record<string, unknown>) => db.read((q) => statementsFor(q, s).page.execute(params)),

    /** How many reports match, counted up to one past COUNT_CAP. */
    count: async (s: Shape, params: Record<string, unknown>): Promise<number> => (await db.read((q) => statementsFor(q, s).count.execute(params)))[0]?.n ?? 0,

    /** The matching seqs newest first, up to one past COUNT_CAP. */
    seqs: (s: Shape, params: Record<string, unknown>): Promise<number[]> => db.read((q) => firstColumnOf<number>(statementsFor(q, s).seqs, params)),

    /** The list rows of these reports, newest first: a page cut from a walk of the matching seqs. */
    rowsBySeq: async (seqs: number[]) => (seqs.length === 0 ? [] : await db.read((q) => bySeqStatements(q).execute({ seqs: JSON.stringify(seqs) }))),

    /** The seq of the project's live report `skip` places below its newest, or undefined past the oldest. */
    nthNewestLive: async (projectId: string, skip: number): Promise<number | undefined> => (await db.read((q) => nthStatements(q).execute({ projectId, skip })))[0]?.seq,

    /** `facetAndWordCounts`, read on the seam. */
    facetAndWordCounts: (projectId: string, facet: { kind: FacetKind; value: string }, words: Words) => db.read((q) => facetAndWordCounts(q, projectId, facet, words)),

    /** Every matching report's id and number newest first, up to one past COUNT_CAP (bulk actions and merges by filter). */
    all: (s: Shape, params: Record<string, unknown>) => db.read((q) => statementsFor(q, s).all.execute(params)),
  }
}

export { COUNT_CAP, type ListSort, type Shape } from './reports.list-shape'
