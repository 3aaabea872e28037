import type { Db, Seam } from '../../db/client'
import { translateSearch } from './fts-query'
import { COUNT_CAP, createReportsListRepository, type ListSort, type Shape } from './reports.list.repository'
import type { FacetKind } from './report-facets'
import { reportAdditions, type SlaState } from './report-additions'
import type { ListFilterQuery } from './reports.schemas'
import { errorTypesIn } from './reports.search'
import { createReportsSearchRepository } from './reports.search.repository'
import { noSearchFilters, type SearchFilters, splitSearch } from './search-filters'
import { translateSearchToTsquery } from './search-tsquery'
import { type Category, type Priority, PRIORITIES, type Source, type Status } from './reports.types'
import { culpritField } from './culprit'
import { listItemView } from './reports.views'
import { trendWindow } from './report-trend'
import type { SparkRange } from './list-filter-keys'
import { escalatingAmong, hourlySparklines } from './report-trend.service'

export { COUNT_CAP, type ListSort } from './reports.list.repository'

export const LIST_PAGE_SIZE = 25

export interface ListFilters {
  status?: Status
  priority?: Priority
  category?: Category
  /** A user id, or `unassigned`. */
  assignedTo?: string
  label?: string
  source?: Source
  errorType?: string
  /** Words and filters (search-filters.ts). */
  q?: string
  /** Parameters that `q` can also say (`version=` is `version:`): ANDed with what `q` says. */
  version?: string
  platform?: string
  runtime?: string
  browser?: string
  environment?: string
  player?: string
  fingerprint?: string
  regression?: boolean
  hasScreenshot?: boolean
  /** Only reports with an unresolved blocker. */
  blocked?: boolean
  /** Only reports due before `now` and not done. */
  overdue?: boolean
  /** Only reports whose select custom field has this option. */
  customField?: { fieldId: string; option: string }
  /** Only reports whose SLA clock is in this state. */
  sla?: SlaState
  sort?: ListSort
  /** What each row's sparkline counts: per day over 14 days (the default) or 30, or per hour over 24 hours. */
  spark?: SparkRange
  page: number
  /** The clock's time, for `overdue`, SLA states and sparklines. */
  now?: Date
}

/** The list's filters from its query parameters (the list route and the bulk routes' `filter`). */
export async function listFiltersOf(db: Db, projectId: string, query: ListFilterQuery): Promise<Omit<ListFilters, 'page' | 'sort' | 'now'>> {
  return {
    status: query.status,
    priority: query.priority,
    category: query.category,
    assignedTo: query.assigned_to,
    label: query.label,
    source: query.source,
    errorType: query.error_type,
    q: query.q,
    version: query.version,
    platform: query.platform,
    runtime: query.runtime,
    browser: query.browser,
    environment: query.environment,
    player: query.player,
    fingerprint: query.fingerprint,
    regression: query.regression,
    hasScreenshot: query.has_screenshot,
    blocked: query.blocked,
    sla: query.sla,
    overdue: query.overdue,
    customField: query.custom_field === undefined ? undefined : await reportAdditions().selectFieldFilter({ db }, projectId, query.custom_field),
  }
}

/** Facets the key of which drives best first: a player has few reports, a version more, a platform most. */
const FACET_ORDER: FacetKind[] = ['player', 'tag', 'version', 'browser', 'runtime', 'platform', 'environment', 'screenshot']

/** What a list's filters ask of the data before its statement can be chosen: error types by name, and which of a facet and words is rarer. */
interface PlanFacts {
  /** Per `error:` name, the project's error types that answer it. */
  errors: string[][]
  /** Whether the first facet holds fewer reports than the words match (asked only when both are there). */
  facetRarer: boolean
  /** Whether the words match at most FEW_WORD_MATCHES reports on the whole server (asked likewise). */
  fewWords: boolean
}

/**
 * Word matches few enough to probe each one's facets (Shape.probeFacets): at ~10 µs a probe, a
 * bounded few milliseconds, where a misjudged join reads the facet's whole key.
 */
const FEW_WORD_MATCHES = 500

/** The words, facets and `error:` names of `f` and its `q`, and what the data must answer about them (`facts`). */
function parse(f: Omit<ListFilters, 'page'>) {
  const searched = f.q === undefined ? { filters: noSearchFilters(), text: '' } : splitSearch(f.q)
  const sf: SearchFilters = searched.filters
  const fts = searched.text ? translateSearch(searched.text) : null
  // The same words as tsquery text, for PostgreSQL: one parser, so both say the same terms (or none).
  const ts = searched.text ? translateSearchToTsquery(searched.text) : null
  const values: Record<FacetKind, string[]> = {
    player: [...(f.player ? [f.player] : []), ...sf.players],
    version: [...(f.version ? [f.version] : []), ...sf.versions],
    platform: [...(f.platform ? [f.platform] : []), ...sf.platforms],
    runtime: [...(f.runtime ? [f.runtime] : []), ...sf.runtimes],
    browser: [...(f.browser ? [f.browser] : []), ...sf.browsers],
    environment: [...(f.environment ? [f.environment] : []), ...sf.environments],
    screenshot: f.hasScreenshot || sf.screenshot ? [''] : [],
    tag: sf.tags,
  }
  const facets = FACET_ORDER.flatMap((kind) => values[kind].map((value) => ({ kind, value })))
  const fingerprints = [...(f.fingerprint ? [f.fingerprint] : []), ...sf.fingerprints].map((v) => v.toLowerCase())
  const regression = f.regression === true || sf.regression
  const selectiveElsewhere = f.label !== undefined || fingerprints.length > 0 || regression || sf.escalating
  // Words and a facet: the rarer of the two drives (a common word under a rare version, or the reverse).
  const compare = facets.length > 0 && fts?.match && ts?.match && !selectiveElsewhere ? { facet: facets[0]!, words: { match: fts.match, tsMatch: ts.match } } : null
  return { sf, fts, ts, facets, fingerprints, regression, selectiveElsewhere, compare }
}

/** The facts of `parsed` from the repositories. */
async function factsOf(db: Seam, projectId: string, parsed: ReturnType<typeof parse>): Promise<PlanFacts> {
  const types = parsed.sf.errors.length ? await createReportsSearchRepository({ db }).distinctErrorTypes(projectId) : []
  const compare = parsed.compare
  // On a tie (both past the cap) the facet drives: reading every match of a common word into a set
  // once (~50 ms for 300,000) is bounded, while walking those matches one by one to count the few
  // that also carry the facet is not.
  const counts = compare ? await createReportsListRepository({ db }).facetAndWordCounts(projectId, compare.facet, compare.words) : null
  return {
    errors: parsed.sf.errors.map((name) => errorTypesIn(types, name)),
    facetRarer: counts !== null && (counts.oneIndex || counts.inFacet <= counts.inWords),
    fewWords: counts !== null && !counts.oneIndex && counts.inWords <= FEW_WORD_MATCHES,
  }
}

/** The filters of `f` and of its `q` together, as a statement shape and its parameters; `none` when nothing can match. */
function plan(projectId: string, f: ListFilters, parsed: ReturnType<typeof parse>, facts: PlanFacts) {
  const { fts, facets, fingerprints, regression, selectiveElsewhere } = parsed
  const sf = parsed.sf
  const ftsExpr = fts?.match ?? fts?.excludeOnly ?? null
  const tsExpr = parsed.ts?.match ?? parsed.ts?.excludeOnly ?? null
  // Each `error:` name stands for the project's error types that answer it; none: nothing matches.
  const errors = facts.errors
  let q: Shape['q'] = fts?.match ? 'match' : fts?.excludeOnly ? 'exclude' : null
  let drive: Shape['drive'] = facets.length > 0 && q === null && !selectiveElsewhere ? 'facet' : null
  if (parsed.compare && facts.facetRarer) {
    drive = 'facet'
    q = 'matchSet'
  }
  const shape: Shape = {
    status: f.status !== undefined,
    priority: f.priority !== undefined,
    category: f.category !== undefined,
    assignee: f.assignedTo === undefined ? null : f.assignedTo === 'unassigned' ? 'unassigned' : 'id',
    unassigned: sf.unassigned,
    label: f.label !== undefined,
    source: f.source !== undefined,
    errorType: f.errorType !== undefined,
    errors: errors.map((e) => e.length),
    fingerprints: fingerprints.length,
    regression,
    escalating: sf.escalating,
    facets: facets.map((x) => x.kind),
    drive,
    q,
    fewMatches: false,
    probeFacets: q === 'match' && drive === null && facts.fewWords,
    blocked: f.blocked === true,
    overdue: f.overdue === true,
    customField: f.customField !== undefined,
    sla: f.sla ?? null,
    dated: null,
    sort: f.sort ?? 'newest',
  }
  const params: Record<string, unknown> = {
    projectId,
    status: f.status,
    priorityRank: f.priority === undefined ? undefined : PRIORITIES.indexOf(f.priority),
    category: f.category,
    assignedTo: f.assignedTo,
    label: f.label,
    source: f.source,
    errorType: f.errorType,
    match: ftsExpr ?? undefined,
    tsMatch: tsExpr ?? undefined,
    now: f.overdue || f.sla ? (f.now ?? new Date()).getTime() : undefined,
    cfField: f.customField?.fieldId,
    cfOption: f.customField?.option,
    ...(sf.escalating || f.sort === 'trending' ? trendWindow(f.now ?? new Date()) : {}),
  }
  facets.forEach((x, i) => (params[`facet${i}`] = x.value))
  fingerprints.forEach((v, i) => (params[`fingerprint${i}`] = v))
  errors.forEach((types, i) => (params[`error${i}`] = types.length === 1 ? types[0] : JSON.stringify(types)))
  const filtered = Object.entries(shape).some(([k, v]) => k !== 'sort' && k !== 'dated' && k !== 'drive' && v !== false && v !== null && v !== 0 && !(Array.isArray(v) && v.length === 0))
  return { shape, params, filtered, none: errors.some((e) => e.length === 0) }
}

/**
 * The lowest seq an exclusion-only list (newest first) needs to look at: a window of the project's
 * newest live reports holding more than COUNT_CAP rows without the excluded words (and matching the
 * other filters), which settles both the capped total and any page up to the cap. It starts at twice
 * that many reports and grows fourfold; 0 (the whole project) once it reaches the oldest report or
 * for pages past the cap. `countFrom(minSeq)` is the list's bounded count with the window applied.
 */
async function excludeWindow(list: ListRepository, projectId: string, countFrom: (minSeq: number) => Promise<number>, offset: number): Promise<number> {
  if (offset + LIST_PAGE_SIZE > COUNT_CAP + 1) return 0
  for (let span = (COUNT_CAP + 1) * 2; ; span *= 4) {
    const edge = await list.nthNewestLive(projectId, span - 1)
    if (edge === undefined) return 0
    if ((await countFrom(edge)) > COUNT_CAP) return edge
  }
}

/**
 * A page in due order: dated reports earliest first, then undated ones newest first. Each part is one
 * index walk; the dated count (bounded by COUNT_CAP) tells where the undated part starts.
 */
async function dueOrderPage(list: ListRepository, shape: Shape, params: Record<string, unknown>, offset: number) {
  const dated = { ...shape, dated: 'yes' as const }
  const rows = await list.page(dated, { ...params, limit: LIST_PAGE_SIZE, offset })
  if (rows.length === LIST_PAGE_SIZE) return rows
  const datedCount = Math.min(await list.count(dated, params), COUNT_CAP)
  const rest = await list.page({ ...shape, dated: 'no' }, { ...params, limit: LIST_PAGE_SIZE - rows.length, offset: Math.max(0, offset - datedCount) })
  return [...rows, ...rest]
}

type ListRepository = ReturnType<typeof createReportsListRepository>

/** The page's sparklines by report id, as `spark` chose. */
async function sparklinesOf(db: Db, rows: { seq: number; id: string }[], now: Date, spark: SparkRange): Promise<Map<string, number[]>> {
  if (spark === '24h') return hourlySparklines(db, rows.map((r) => r.id), now)
  const bySeq = await reportAdditions().sparklines(db, rows, now, spark === '30d' ? 30 : 14)
  return new Map(rows.map((r) => [r.id, bySeq.get(r.seq)!]))
}

/**
 * One page of a project's live reports, each with its sparkline (14 days unless `spark` says) and
 * the numbers of those escalating (report-trend.ts). A `q` without a usable
 * term (only punctuation, a lone `*`) is ignored, as an empty search box would be; its filters apply.
 */
export async function listReports(db: Db, project: { id: string; liveReportCount: number }, f: ListFilters) {
  const parsed = parse(f)
  const { shape, params, filtered, none } = plan(project.id, f, parsed, await factsOf(db, project.id, parsed))
  const list = createReportsListRepository({ db })
  let total = project.liveReportCount
  let capped = false
  // The window's own count is the answer's total when a window was found; it is kept, not rerun.
  let windowCount: number | null = null
  if (shape.q === 'exclude') {
    const countFrom = async (minSeq: number) => (windowCount = await list.count(shape, { ...params, minSeq }))
    const minSeq = shape.sort === 'newest' && !none ? await excludeWindow(list, project.id, countFrom, (f.page - 1) * LIST_PAGE_SIZE) : 0
    if (minSeq === 0) windowCount = null
    Object.assign(params, { minSeq })
  }
  const offset = (f.page - 1) * LIST_PAGE_SIZE
  // A facet-driven list newest first walks its matches once: the seqs up to the cap give the total,
  // and the page is cut from them (a second walk for the page would repeat every key probe).
  const oneWalk = !none && shape.drive === 'facet' && shape.sort === 'newest' && offset + LIST_PAGE_SIZE <= COUNT_CAP + 1
  const walked = oneWalk ? await list.seqs(shape, params) : null
  if (filtered) {
    const n = none ? 0 : (walked?.length ?? windowCount ?? (await list.count(shape, params)))
    capped = n > COUNT_CAP
    total = Math.min(n, COUNT_CAP)
  }
  // A common word or facet under another sort: the sort's index drives and each row is checked.
  const probe = capped && shape.sort !== 'newest' && (shape.q === 'match' || shape.drive === 'facet')
  const pageShape = probe
    ? { ...shape, q: shape.q === 'match' || shape.q === 'matchSet' ? ('matchSet' as const) : shape.q, drive: null }
    : { ...shape, fewMatches: shape.q === 'match' && !capped }
  const rows = none
    ? []
    : walked
      ? await list.rowsBySeq(walked.slice(offset, offset + LIST_PAGE_SIZE))
      : shape.sort === 'due'
        ? await dueOrderPage(list, shape, params, offset)
        : await list.page(pageShape, { ...params, limit: LIST_PAGE_SIZE, offset })
  const ids = rows.map((r) => r.id)
  const now = f.now ?? new Date()
  const [labelMap, slas, sparks, escalating] = await Promise.all([
    reportAdditions().labelsOfReports(db, ids),
    reportAdditions().slaOfReports({ db }, ids, now),
    sparklinesOf(db, rows, now, f.spark ?? '14d'),
    escalatingAmong(db, ids, now),
  ])
  return {
    bugs: rows.map((r) => ({ ...listItemView(r, labelMap.get(r.id) ?? []), ...culpritField(r), sla: slas.get(r.id) ?? null, sparkline: sparks.get(r.id)! })),
    total,
    total_capped: capped,
    escalating: rows.filter((r) => escalating.has(r.id)).map((r) => r.reportNumber),
    page: f.page,
    limit: LIST_PAGE_SIZE,
    total_pages: Math.ceil(total / LIST_PAGE_SIZE),
  }
}

/**
 * Every live report the list shows for these filters (any page), newest first, for a bulk action by
 * filter; `capped` when more than COUNT_CAP match (the caller refuses those: narrow the filter).
 */
export async function matchingReports(db: Seam, projectId: string, f: Omit<ListFilters, 'page' | 'sort'>): Promise<{ reports: { id: string; reportNumber: number }[]; capped: boolean }> {
  const parsed = parse(f)
  const { shape, params, none } = plan(projectId, { ...f, page: 1 }, parsed, await factsOf(db, projectId, parsed))
  if (none) return { reports: [], capped: false }
  const rows = await createReportsListRepository({ db }).all(shape, { ...params, minSeq: 0 })
  return { reports: rows.slice(0, COUNT_CAP), capped: rows.length > COUNT_CAP }
}
