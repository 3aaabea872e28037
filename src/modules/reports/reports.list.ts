import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Db, Seam } from '../../db/client'
import { createLabelsRepository } from '../labels/labels.repository'
import { sparklinesOf } from '../analytics/report-daily'
import { translateSearch } from './fts-query'
import { COUNT_CAP, facetRarerThanWords, listRowsBySeq, type ListSort, type Shape, statementsFor } from './list.statements'
import type { FacetKind } from './report-facets'
import { reportAdditions, type SlaState } from './report-additions'
import type { ListFilterQuery } from './reports.schemas'
import { errorTypesNamed } from './reports.search'
import { noSearchFilters, type SearchFilters, splitSearch } from './search-filters'
import { type Category, type Priority, PRIORITIES, reports, type Status } from './reports.table'
import { type LabelView, listItemView } from './reports.views'

export { COUNT_CAP, type ListSort } from './list.statements'

export const LIST_PAGE_SIZE = 25

export interface ListFilters {
  status?: Status
  priority?: Priority
  category?: Category
  /** A user id, or `unassigned`. */
  assignedTo?: string
  label?: string
  source?: 'user' | 'system'
  errorType?: string
  /** Words and filters (search-filters.ts). */
  q?: string
  /** Parameters that `q` can also say (`version=` is `version:`): ANDed with what `q` says. */
  version?: string
  platform?: string
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
  page: number
  /** The clock's time, for `overdue`, SLA states and sparklines. */
  now?: Date
}

/** The list's filters from its query parameters (the list route and the bulk routes' `filter`). */
export function listFiltersOf(db: Db, projectId: string, query: ListFilterQuery): Omit<ListFilters, 'page' | 'sort' | 'now'> {
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
    player: query.player,
    fingerprint: query.fingerprint,
    regression: query.regression,
    hasScreenshot: query.has_screenshot,
    blocked: query.blocked,
    sla: query.sla,
    overdue: query.overdue,
    customField: query.custom_field === undefined ? undefined : reportAdditions().selectFieldFilter(db, projectId, query.custom_field),
  }
}

/** Facets the key of which drives best first: a player has few reports, a version more, a platform most. */
const FACET_ORDER: FacetKind[] = ['player', 'version', 'platform', 'screenshot']

/** The filters of `f` and of its `q` together, as a statement shape and its parameters; `none` when nothing can match. */
function plan(db: Db, projectId: string, f: ListFilters) {
  const searched = f.q === undefined ? { filters: noSearchFilters(), text: '' } : splitSearch(f.q)
  const sf: SearchFilters = searched.filters
  const fts = searched.text ? translateSearch(searched.text) : null
  const ftsExpr = fts?.match ?? fts?.excludeOnly ?? null
  const values: Record<FacetKind, string[]> = {
    player: [...(f.player ? [f.player] : []), ...sf.players],
    version: [...(f.version ? [f.version] : []), ...sf.versions],
    platform: [...(f.platform ? [f.platform] : []), ...sf.platforms],
    screenshot: f.hasScreenshot || sf.screenshot ? [''] : [],
  }
  const facets = FACET_ORDER.flatMap((kind) => values[kind].map((value) => ({ kind, value })))
  const fingerprints = [...(f.fingerprint ? [f.fingerprint] : []), ...sf.fingerprints].map((v) => v.toLowerCase())
  // Each `error:` name stands for the project's error types that answer it; none: nothing matches.
  const errors = sf.errors.map((name) => errorTypesNamed(db, projectId, name))
  const regression = f.regression === true || sf.regression
  let q: Shape['q'] = fts?.match ? 'match' : fts?.excludeOnly ? 'exclude' : null
  const selectiveElsewhere = f.label !== undefined || fingerprints.length > 0 || regression
  // Words and a facet: the rarer of the two drives (a common word under a rare version, or the reverse).
  let drive: Shape['drive'] = facets.length > 0 && q === null && !selectiveElsewhere ? 'facet' : null
  if (facets.length > 0 && q === 'match' && !selectiveElsewhere && facetRarerThanWords(db, projectId, facets[0]!, fts!.match!)) {
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
    facets: facets.map((x) => x.kind),
    drive,
    q,
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
    now: f.overdue || f.sla ? (f.now ?? new Date()).getTime() : undefined,
    cfField: f.customField?.fieldId,
    cfOption: f.customField?.option,
  }
  facets.forEach((x, i) => (params[`facet${i}`] = x.value))
  fingerprints.forEach((v, i) => (params[`fingerprint${i}`] = v))
  errors.forEach((types, i) => (params[`error${i}`] = types.length === 1 ? types[0] : JSON.stringify(types)))
  const filtered = Object.entries(shape).some(([k, v]) => k !== 'sort' && k !== 'dated' && k !== 'drive' && v !== false && v !== null && v !== 0 && !(Array.isArray(v) && v.length === 0))
  return { shape, params, filtered, none: errors.some((e) => e.length === 0) }
}

/** Labels of many reports in one query, grouped by report id. */
export async function labelsByReport(db: Seam, reportIds: string[]): Promise<Map<string, LabelView[]>> {
  const out = new Map<string, LabelView[]>()
  if (reportIds.length === 0) return out
  for (const row of await createLabelsRepository({ db }).ofReports(reportIds)) {
    const list = out.get(row.reportId) ?? []
    list.push({ id: row.id, name: row.name, color: row.color })
    out.set(row.reportId, list)
  }
  return out
}

const nthNewestLive = (db: Db) =>
  db
    .select({ seq: reports.seq })
    .from(reports)
    .where(and(eq(reports.projectId, sql.placeholder('projectId')), isNull(reports.deletedAt)))
    .orderBy(desc(reports.seq))
    .limit(1)
    .offset(sql.placeholder('skip'))
    .prepare()
const nthStatements = new WeakMap<Db, ReturnType<typeof nthNewestLive>>()

/**
 * The lowest seq an exclusion-only list (newest first) needs to look at: a window of the project's
 * newest live reports holding more than COUNT_CAP rows without the excluded words (and matching the
 * other filters), which settles both the capped total and any page up to the cap. It starts at twice
 * that many reports and grows fourfold; 0 (the whole project) once it reaches the oldest report or
 * for pages past the cap. `countFrom(minSeq)` is the list's bounded count with the window applied.
 */
function excludeWindow(db: Db, projectId: string, countFrom: (minSeq: number) => number, offset: number): number {
  if (offset + LIST_PAGE_SIZE > COUNT_CAP + 1) return 0
  let st = nthStatements.get(db)
  if (!st) nthStatements.set(db, (st = nthNewestLive(db)))
  for (let span = (COUNT_CAP + 1) * 2; ; span *= 4) {
    const edge = st.get({ projectId, skip: span - 1 })
    if (!edge) return 0
    if (countFrom(edge.seq) > COUNT_CAP) return edge.seq
  }
}

/**
 * A page in due order: dated reports earliest first, then undated ones newest first. Each part is one
 * index walk; the dated count (bounded by COUNT_CAP) tells where the undated part starts.
 */
function dueOrderPage(db: Db, shape: Shape, params: Record<string, unknown>, offset: number) {
  const dated = statementsFor(db, { ...shape, dated: 'yes' })
  const rows = dated.page.all({ ...params, limit: LIST_PAGE_SIZE, offset })
  if (rows.length === LIST_PAGE_SIZE) return rows
  const datedCount = Math.min(dated.count.get(params)?.n ?? 0, COUNT_CAP)
  const rest = statementsFor(db, { ...shape, dated: 'no' }).page.all({ ...params, limit: LIST_PAGE_SIZE - rows.length, offset: Math.max(0, offset - datedCount) })
  return [...rows, ...rest]
}

/**
 * One page of a project's live reports, each with its 14-day sparkline. A `q` without a usable
 * term (only punctuation, a lone `*`) is ignored, as an empty search box would be; its filters apply.
 */
export async function listReports(db: Db, project: { id: string; liveReportCount: number }, f: ListFilters) {
  const { shape, params, filtered, none } = plan(db, project.id, f)
  const st = statementsFor(db, shape)
  let total = project.liveReportCount
  let capped = false
  // The window's own count is the answer's total when a window was found; it is kept, not rerun.
  let windowCount: number | null = null
  if (shape.q === 'exclude') {
    const countFrom = (minSeq: number) => (windowCount = st.count.get({ ...params, minSeq })?.n ?? 0)
    const minSeq = shape.sort === 'newest' && !none ? excludeWindow(db, project.id, countFrom, (f.page - 1) * LIST_PAGE_SIZE) : 0
    if (minSeq === 0) windowCount = null
    Object.assign(params, { minSeq })
  }
  const offset = (f.page - 1) * LIST_PAGE_SIZE
  // A facet-driven list newest first walks its matches once: the seqs up to the cap give the total,
  // and the page is cut from them (a second walk for the page would repeat every key probe).
  const oneWalk = !none && shape.drive === 'facet' && shape.sort === 'newest' && offset + LIST_PAGE_SIZE <= COUNT_CAP + 1
  let walked: number[] | null = null
  // Plain value rows: up to 10,001 seqs, no object per row.
  if (oneWalk) walked = (st.seqs.values(params) as number[][]).map((r) => r[0]!)
  if (filtered) {
    const n = none ? 0 : (walked?.length ?? windowCount ?? st.count.get(params)?.n ?? 0)
    capped = n > COUNT_CAP
    total = Math.min(n, COUNT_CAP)
  }
  // A common word or facet under another sort: the sort's index drives and each row is checked.
  const probe = capped && shape.sort !== 'newest' && (shape.q === 'match' || shape.drive === 'facet')
  const pageOf = probe ? statementsFor(db, { ...shape, q: shape.q === 'match' || shape.q === 'matchSet' ? 'matchSet' : shape.q, drive: null }) : st
  const rows = none
    ? []
    : walked
      ? listRowsBySeq(db, walked.slice(offset, offset + LIST_PAGE_SIZE))
      : shape.sort === 'due'
        ? dueOrderPage(db, shape, params, offset)
        : pageOf.page.all({ ...params, limit: LIST_PAGE_SIZE, offset })
  const ids = rows.map((r) => r.id)
  const labelMap = await labelsByReport(db, ids)
  const now = f.now ?? new Date()
  const sparks = sparklinesOf(db, rows, now)
  const slas = await reportAdditions().slaOfReports({ db }, ids, now)
  return {
    bugs: rows.map((r) => ({ ...listItemView(r, labelMap.get(r.id) ?? []), sla: slas.get(r.id) ?? null, sparkline: sparks.get(r.seq)! })),
    total,
    total_capped: capped,
    page: f.page,
    limit: LIST_PAGE_SIZE,
    total_pages: Math.ceil(total / LIST_PAGE_SIZE),
  }
}

/**
 * Every live report the list shows for these filters (any page), newest first, for a bulk action by
 * filter; `capped` when more than COUNT_CAP match (the caller refuses those: narrow the filter).
 */
export function matchingReports(db: Db, projectId: string, f: Omit<ListFilters, 'page' | 'sort'>): { reports: { id: string; reportNumber: number }[]; capped: boolean } {
  const { shape, params, none } = plan(db, projectId, { ...f, page: 1 })
  if (none) return { reports: [], capped: false }
  const rows = statementsFor(db, shape).all.all({ ...params, minSeq: 0 })
  return { reports: rows.slice(0, COUNT_CAP), capped: rows.length > COUNT_CAP }
}
