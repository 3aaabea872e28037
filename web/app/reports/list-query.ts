import { LIST_FILTER_KEYS, SPARK_RANGES, type SparkRange } from '../../../src/modules/reports/list-filter-keys'
import { CATEGORY_OPTIONS, isOption, PRIORITY_OPTIONS, SORT_OPTIONS, SOURCE_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { Category, Priority, Sort, Source, Status } from './report-enums'

/** Everything that selects a page of the report list; the URL of the list holds exactly this. */
export interface ListQuery {
  status?: Status
  priority?: Priority
  category?: Category
  /** A member's user id, or `unassigned`. */
  assigned_to?: string
  /** A label id. */
  label?: string
  source?: Source
  error_type?: string
  q?: string
  /** Reports with any occurrence from this game version, platform (OS), runtime, browser, environment or player (`version:` … in `q`). */
  version?: string
  platform?: string
  runtime?: string
  browser?: string
  environment?: string
  player?: string
  /** A grouping key: every report of it. */
  fingerprint?: string
  /** Only reports a newer build reopened after they were resolved (`true`). */
  regression?: 'true'
  /** Only reports with an occurrence that brought a screenshot (`true`). */
  has_screenshot?: 'true'
  /** Only reports with an unresolved blocker (`true`). */
  blocked?: 'true'
  /** Only reports past their due date and not done (`true`). */
  overdue?: 'true'
  /** Only reports whose SLA clock is in this state. */
  sla?: 'ok' | 'at_risk' | 'breached'
  /** `<select field id>:<option>`: reports whose select custom field has that option. */
  custom_field?: string
  /** Absent means newest first, the server's default. */
  sort?: Exclude<Sort, 'newest'>
  /** What the rows' sparklines count; absent means per day over 14 days, the server's default. */
  spark?: Exclude<SparkRange, '14d'>
  page: number
}

/** The filter keys, in the order they appear in URLs (the server's list of them). */
export const FILTER_KEYS = LIST_FILTER_KEYS
export type FilterKey = (typeof FILTER_KEYS)[number]

// Free-text filters get the server's own length limits, so a hand-edited URL never yields a 400.
const TEXT_KEYS = ['assigned_to', 'label', 'error_type', 'q', 'version', 'platform', 'runtime', 'browser', 'environment', 'player', 'fingerprint', 'custom_field'] as const
const MAX_LENGTH: Record<(typeof TEXT_KEYS)[number], number> = {
  assigned_to: 100,
  label: 100,
  error_type: 200,
  q: 500,
  version: 200,
  platform: 200,
  runtime: 200,
  browser: 200,
  environment: 200,
  player: 200,
  fingerprint: 200,
  custom_field: 300,
}
const SLA_STATES = ['ok', 'at_risk', 'breached'] as const
const MAX_PAGE = 1_000_000

const text = (params: URLSearchParams, key: keyof typeof MAX_LENGTH): string | undefined => {
  const v = params.get(key)
  if (v === null) return undefined
  const limited = v.slice(0, MAX_LENGTH[key])
  return key === 'q' ? (limited.trim() ? limited : undefined) : limited.trim() || undefined
}

/** Reads a list query from a URL query string; unknown or malformed values are dropped, never guessed. */
export function parseListQuery(search: string | URLSearchParams): ListQuery {
  const params = typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search
  const query: ListQuery = { page: 1 }
  const status = params.get('status')
  if (isOption(STATUS_OPTIONS, status)) query.status = status
  const priority = params.get('priority')
  if (isOption(PRIORITY_OPTIONS, priority)) query.priority = priority
  const category = params.get('category')
  if (isOption(CATEGORY_OPTIONS, category)) query.category = category
  const source = params.get('source')
  if (isOption(SOURCE_OPTIONS, source)) query.source = source
  const sort = params.get('sort')
  if (isOption(SORT_OPTIONS, sort) && sort !== 'newest') query.sort = sort
  const spark = params.get('spark')
  if (spark !== '14d' && (SPARK_RANGES as readonly (string | null)[]).includes(spark)) query.spark = spark as ListQuery['spark']
  for (const key of ['blocked', 'overdue', 'regression', 'has_screenshot'] as const) if (params.get(key) === 'true') query[key] = 'true'
  const sla = params.get('sla')
  if ((SLA_STATES as readonly (string | null)[]).includes(sla)) query.sla = sla as ListQuery['sla']
  for (const key of TEXT_KEYS) {
    const v = text(params, key)
    if (v !== undefined) query[key] = v
  }
  const page = params.get('page')
  if (page !== null && /^\d{1,7}$/.test(page)) query.page = Math.min(Math.max(1, Number(page)), MAX_PAGE)
  return query
}

/** The query as URL parameters: filters in FILTER_KEYS order, then sort, then page; defaults left out. */
export function listQueryParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams()
  for (const key of FILTER_KEYS) {
    const v = query[key]
    if (v !== undefined && v !== '') params.set(key, v)
  }
  if (query.sort) params.set('sort', query.sort)
  if (query.spark) params.set('spark', query.spark)
  if (query.page > 1) params.set('page', String(query.page))
  return params
}

/** `?status=open&page=2`, or '' for the default list. */
export function listQueryString(query: ListQuery): string {
  const s = listQueryParams(query).toString()
  return s ? `?${s}` : ''
}

/** The query with one filter (or the sort) changed; any change of what is listed goes back to page 1. */
export function withFilter<K extends FilterKey | 'sort' | 'spark'>(query: ListQuery, key: K, value: ListQuery[K] | Sort | SparkRange | '' | undefined): ListQuery {
  const next: ListQuery = { ...query, page: 1 }
  if (value === undefined || value === '' || (key === 'sort' && value === 'newest') || (key === 'spark' && value === '14d')) delete next[key]
  else next[key] = value as ListQuery[K]
  return next
}

/** The query on another page. */
export const withPage = (query: ListQuery, page: number): ListQuery => ({ ...query, page: Math.min(Math.max(1, Math.floor(page)), MAX_PAGE) })

/** The same filters, newest first, first page: where reports filed since the list was opened show up. */
export function newestMatching(query: ListQuery): ListQuery {
  const { sort: _sort, page: _page, ...filters } = query
  return { ...filters, page: 1 }
}

/** The query's filters alone (no sort, no page): what a bulk action by filter sends as `filter`. */
export function filterOf(query: ListQuery): Omit<ListQuery, 'sort' | 'page'> {
  const out: Record<string, string> = {}
  for (const key of FILTER_KEYS) {
    const v = query[key]
    if (v !== undefined && v !== '') out[key] = v
  }
  return out as Omit<ListQuery, 'sort' | 'page'>
}

/** Whether any filter (not the sort or page) is set. */
export const hasFilters = (query: ListQuery): boolean => FILTER_KEYS.some((k) => query[k] !== undefined)

/** The API path of the list page for `query`. */
export const listApiPath = (slug: string, query: ListQuery): string => `/projects/${encodeURIComponent(slug)}/bugs${listQueryString(query)}`

/** The CSV export link: the export route filters by status and priority only. */
export function exportHref(slug: string, query: Pick<ListQuery, 'status' | 'priority'>): string {
  const params = new URLSearchParams()
  if (query.status) params.set('status', query.status)
  if (query.priority) params.set('priority', query.priority)
  const s = params.toString()
  return `/api/projects/${encodeURIComponent(slug)}/bugs/export${s ? `?${s}` : ''}`
}

/** The list page URL for `query`. */
export const listHref = (slug: string, query: ListQuery): string => `/projects/${encodeURIComponent(slug)}/reports${listQueryString(query)}`

/**
 * A report page URL that remembers the list it was opened from (`?list=…`), so the report page can
 * offer the previous and next report of that list and a way back to it.
 */
export function reportHref(slug: string, number: number, from?: ListQuery): string {
  const base = `/projects/${encodeURIComponent(slug)}/reports/${number}`
  if (!from) return base
  // `page=1` stands for the default list so that "came from the list" survives an empty query.
  const list = listQueryParams(from).toString() || 'page=1'
  return `${base}?${new URLSearchParams({ list }).toString()}`
}

/** The list a report page was opened from (its `list` parameter), or null for a direct visit. */
export function listFromReportSearch(search: string | URLSearchParams): ListQuery | null {
  const params = typeof search === 'string' ? new URLSearchParams(search.startsWith('?') ? search.slice(1) : search) : search
  const list = params.get('list')
  return list === null || list === '' ? null : parseListQuery(list)
}
