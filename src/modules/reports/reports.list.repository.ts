import { and, asc, desc, eq, inArray, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { alias, type SelectedFields } from 'drizzle-orm/sqlite-core'
import { type Db, onPostgres, preparedPerConnection, type Seam } from '../../db/client'
import { FACET, type FacetKind, reportFacets } from './report-facets'
import { FACET_SET_KINDS, reportFacetSets } from './report-facets.pg'
import { labelOnlyCount } from './label-count.pg'
import { reportAdditions, type SlaState } from './report-additions'
import { reportsFts } from './reports.fts'
import { reports } from './reports.table'
import { listColumns } from './reports.views'
import { SEARCH_DOCUMENT_SQL } from './search-tsquery'
import { escalatingIds, trendScores } from './report-trend'

/**
 * Filtered totals are counted up to this many matching rows and no further, so a filter that
 * matches most of a 1M-report project costs a bounded index walk, not a full COUNT. Past it the
 * answer says `total: 10000, total_capped: true` (400 pages of 25). Unfiltered totals are exact,
 * from the project's maintained live-report counter. Bulk actions by filter take at most this many.
 */
export const COUNT_CAP = 10_000

export type ListSort = 'newest' | 'priority' | 'upvotes' | 'updated' | 'due' | 'last_seen' | 'occurrences' | 'players' | 'trending'

/** Statuses that count as done: a done blocker no longer blocks, a done report is never overdue. */
const DONE_STATUSES = sql.raw(`('resolved','closed','wont_fix')`)

/** Which filters are present: one prepared statement set per shape, built on first use. */
export interface Shape {
  status: boolean
  priority: boolean
  category: boolean
  assignee: 'id' | 'unassigned' | null
  /** is:unassigned, which holds beside an `assigned_to` parameter (both must). */
  unassigned: boolean
  label: boolean
  source: boolean
  errorType: boolean
  /** Per `error:` filter, how many of the project's error types answer it (1: one index range). */
  errors: number[]
  fingerprints: number
  regression: boolean
  /** is:escalating: the report is among the project's escalating ones (report-trend.ts; placeholders `hourAgo`, `dayAgo`). */
  escalating: boolean
  /** Facet filters (version, platform, player, screenshot) in placeholder order `facet0`, `facet1`…. */
  facets: FacetKind[]
  /**
   * `facet`: the first facet's key drives the join (its report_seq order is "newest first", like the
   * FTS rowid); `+project_id` keeps SQLite from walking a project index instead. Used when no text
   * search, label, fingerprint or regression filter (each selective on its own) is there to drive.
   * When the facet matches more than COUNT_CAP reports and the sort is not "newest", the sort's index
   * drives instead and each row probes the facet key (`null`), as `matchSet` does for words. With
   * words too, the facet drives when it holds fewer reports than the words match (`q: 'matchSet'`
   * then probes the set of word matches); else the words drive and probe the facets.
   */
  drive: 'facet' | null
  /**
   * `match`: the FTS table drives the join (newest first for free; other sorts sort the matches).
   * `matchSet`: the sort's index drives and each row is checked against the set of matches — used
   * when a term matches more than COUNT_CAP reports and the sort is not "newest", so a common word
   * never means sorting hundreds of thousands of rows. `exclude`: only `-terms` were given.
   */
  q: 'match' | 'matchSet' | 'exclude' | null
  /**
   * PostgreSQL only: the words match no more than COUNT_CAP reports (counted before the page), so the
   * page sorts those matches (found through the GIN index) instead of walking the newest-first index
   * and testing each row, which the planner prefers from its guess of a rare word's frequency (a word
   * in 86 of 1M reports: 283,000 rows tested, 1.3 s). A common word keeps the walk: it stops early.
   */
  fewMatches: boolean
  /**
   * PostgreSQL only: the words drive and match so few reports server-wide (FEW_WORD_MATCHES, counted
   * before the plan) that each facet is probed per match. The planner, guessing 0.5% of rows for a
   * word its statistics do not list, would otherwise merge the whole facet key against the matches
   * (a rare word under `platform:` at 1M reports: 157,000 keys read for 86 matches, 60 ms a statement).
   */
  probeFacets: boolean
  blocked: boolean
  overdue: boolean
  customField: boolean
  sla: SlaState | null
  /** sort=due reads dated reports in due order, then undated ones newest first (two index walks). */
  dated: 'yes' | 'no' | null
  sort: ListSort
}

const ph = sql.placeholder
/** The trend window's edges as placeholders (report-trend.ts). */
const trendParams = { hourAgo: sql`${ph('hourAgo')}`, dayAgo: sql`${ph('dayAgo')}` }
/** The trending score of the row's report, 0 without events in the window (sort=trending joins `tr`). */
const trendScore = sql`coalesce(tr.score, 0)`
const driver = alias(reportFacets, 'f')
const kindOf = (k: FacetKind) => sql.raw(String(FACET[k]))

/**
 * PostgreSQL's words search on a report row: its stored tsvector (`search_document`, GIN-indexed) against
 * the placeholder `tsMatch`, the same words as `match` written as tsquery text (search-tsquery.ts).
 * PostgreSQL has no FTS table to drive a join: the row is tested, and its planner picks the index.
 */
const tsMatches = sql`${sql.raw(SEARCH_DOCUMENT_SQL)} @@ to_tsquery('simple', ${ph('tsMatch')})`

/** The seqs of the project's reports that match the words, on PostgreSQL (the FTS rowid set's counterpart). */
const tsMatchSet = sql`(SELECT seq FROM reports WHERE project_id = ${ph('projectId')} AND ${tsMatches})`

/**
 * A report's error type among the JSON array of names in placeholder `name`: SQLite's json_each,
 * PostgreSQL's jsonb. The parameter is cast to text first: bound straight as jsonb, Bun's client sends
 * the string as a JSON string (a scalar), not as the array it spells.
 */
const errorTypeIn = (pg: boolean, name: string) =>
  pg
    ? sql`${reports.errorType} IN (SELECT jsonb_array_elements_text(CAST(CAST(${ph(name)} AS text) AS jsonb)))`
    : sql`${reports.errorType} IN (SELECT value FROM json_each(${ph(name)}))`

/**
 * A probe of one facet key for the row whose seq is `seq`. `each` (PostgreSQL only, see statementsFor): kept a probe per row
 * (`OFFSET 0` stops its planner from turning the EXISTS into a join that reads the whole key), for
 * the few rows of a rare word (Shape.probeFacets).
 */
const facetProbe = (kind: FacetKind, i: number, seq: SQL | typeof reports.seq | typeof reportsFts.rowid | typeof driver.reportSeq, each = false) =>
  sql`EXISTS (SELECT 1 FROM report_facets WHERE project_id = ${ph('projectId')} AND kind = ${kindOf(kind)} AND value = ${ph(`facet${i}`)} AND report_seq = ${seq}${each ? sql` OFFSET 0` : sql``})`

/**
 * Whether the shape filters on facets (and the set of word matches) alone: the facet key then answers
 * which reports match without reading one, as facet rows exist for live reports only (report-facets.ts).
 */
const keyOnly = (s: Shape) => s.drive === 'facet' && (s.q === null || s.q === 'matchSet') && filtersOnly(s, ['facets', 'q'])

/** Shape fields that say how the matches are walked, not which reports match. */
const HOW_WALKED: readonly (keyof Shape)[] = ['sort', 'drive', 'fewMatches', 'probeFacets']

/** Whether the shape filters on nothing but the `allowed` fields (every other one false, null, 0 or empty). */
function filtersOnly(s: Shape, allowed: (keyof Shape)[]): boolean {
  return (Object.keys(s) as (keyof Shape)[]).every((k) => {
    const v = s[k]
    return HOW_WALKED.includes(k) || allowed.includes(k) || v === false || v === null || v === 0 || (Array.isArray(v) && v.length === 0)
  })
}

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
    // PostgreSQL, several facets the sets hold: their GIN index intersects them (report-facets.pg.ts);
    // the others are probed, the words checked as below.
    const valueId = (i: number) => sql`(SELECT id FROM report_facet_values WHERE project_id = ${ph('projectId')} AND kind = ${kindOf(s.facets[i]!)} AND value = ${ph(`facet${i}`)})`
    const checks = [
      sql`ids @> ARRAY[${sql.join(inSet.map(valueId), sql`, `)}]::bigint[]`,
      ...s.facets.flatMap((k, i) => (inSet.includes(i) ? [] : [facetProbe(k, i, sql`${reportFacetSets.reportSeq}`)])),
      ...words(sql`${reportFacetSets.reportSeq}`),
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
 * the sets hold, when there are two or more and one of them drives (a player drives by its own key).
 */
function setFacets(s: Shape): number[] {
  const inSet = s.facets.flatMap((k, i) => ((FACET_SET_KINDS as readonly number[]).includes(FACET[k]) ? [i] : []))
  return inSet.length >= 2 && inSet[0] === 0 ? inSet : []
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
  const page = (s.sort === 'trending' ? from(listColumns).leftJoin(sql`(${trendScores(sql`${ph('projectId')}`, trendParams)}) AS tr`, sql`tr.report_id = ${reports.id}`) : from(listColumns))
    .where(where)
    .orderBy(...ordering(s, k, pg))
    .limit(ph('limit'))
    .offset(ph('offset'))
    .prepare()
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
  const count = pg && s.label && filtersOnly(s, ['label']) ? labelOnlyCount(db, COUNT_CAP) : db.select({ n: countAll() }).from(seqs.as('matching')).prepare()
  // Every matching report up to the cap, for bulk actions by filter.
  const all = from({ id: reports.id, reportNumber: reports.reportNumber })
    .where(where)
    .orderBy(...newestFirst)
    .limit(COUNT_CAP + 1)
    .prepare()
  return { page, count, all, seqs: seqs.prepare() }
}

/** `count(*)` as a number on both engines (PostgreSQL's is a bigint, read as a string). */
const countAll = () => sql<number>`count(*)`.mapWith(Number)

// SQLite's page by seqs, prepared once with the seqs as one JSON parameter (PostgreSQL's: `rowsBySeq`).
const buildBySeq = (db: Db) =>
  db
    .select(listColumns)
    .from(reports)
    .where(sql`${reports.seq} IN (SELECT value FROM json_each(${ph('seqs')}))`)
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

/**
 * How many reports a facet key holds in the project and how many a word search matches on the whole
 * server (an upper bound of the project's), each counted up to one past the cap: which of the two
 * drives a list that has both (reports.list.ts).
 */
async function facetAndWordCounts(db: Db, projectId: string, facet: { kind: FacetKind; value: string }, words: Words): Promise<{ inFacet: number; inWords: number }> {
  const st = estimateStatements(db)
  const inFacet = (await st.facet.execute({ projectId, kind: FACET[facet.kind], value: facet.value }))[0]?.n ?? 0
  const inWords = (await st.words.execute({ ...words }))[0]?.n ?? 0
  return { inFacet, inWords }
}

/** A words search in both engines' forms: the FTS5 MATCH expression and the tsquery text (fts-query.ts, search-tsquery.ts). */
export interface Words {
  match: string
  tsMatch: string
}

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
    seqs: async (s: Shape, params: Record<string, unknown>): Promise<number[]> => (await db.read((q) => statementsFor(q, s).seqs.execute(params))).map((r) => r.seq),

    /** The list rows of these reports, newest first: a page cut from a walk of the matching seqs. */
    rowsBySeq: async (seqs: number[]) =>
      seqs.length === 0
        ? []
        : await db.read((q) =>
            onPostgres(q)
              ? q.select(listColumns).from(reports).where(inArray(reports.seq, seqs)).orderBy(desc(reports.seq))
              : bySeqStatements(q).execute({ seqs: JSON.stringify(seqs) }),
          ),

    /** The seq of the project's live report `skip` places below its newest, or undefined past the oldest. */
    nthNewestLive: async (projectId: string, skip: number): Promise<number | undefined> => (await db.read((q) => nthStatements(q).execute({ projectId, skip })))[0]?.seq,

    /** `facetAndWordCounts`, read on the seam. */
    facetAndWordCounts: (projectId: string, facet: { kind: FacetKind; value: string }, words: Words) => db.read((q) => facetAndWordCounts(q, projectId, facet, words)),

    /** Every matching report's id and number newest first, up to one past COUNT_CAP (bulk actions and merges by filter). */
    all: (s: Shape, params: Record<string, unknown>) => db.read((q) => statementsFor(q, s).all.execute(params)),
  }
}
