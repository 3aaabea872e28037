import { sql } from 'drizzle-orm'
import type { FacetKind } from './report-facets'
import type { SlaState } from './report-additions'
import { SEARCH_DOCUMENT_SQL } from './search-tsquery'

// The list's query shapes (which filters a list has, and so which prepared statements answer it), and
// the SQL pieces both of its repositories use (reports.list.repository.ts, reports.list-counts.repository.ts).

/**
 * Filtered totals are counted up to this many matching rows and no further, so a filter that
 * matches most of a 1M-report project costs a bounded index walk, not a full COUNT. Past it the
 * answer says `total: 10000, total_capped: true` (400 pages of 25). Unfiltered totals are exact,
 * from the project's maintained live-report counter. Bulk actions by filter take at most this many.
 */
export const COUNT_CAP = 10_000

export type ListSort = 'newest' | 'priority' | 'upvotes' | 'updated' | 'due' | 'last_seen' | 'occurrences' | 'players' | 'trending'

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

/**
 * Whether the shape filters on facets (and the set of word matches) alone: the facet key then answers
 * which reports match without reading one, as facet rows exist for live reports only (report-facets.ts).
 */
export const keyOnly = (s: Shape) => s.drive === 'facet' && (s.q === null || s.q === 'matchSet') && filtersOnly(s, ['facets', 'q'])

/** Shape fields that say how the matches are walked, not which reports match. */
const HOW_WALKED: readonly (keyof Shape)[] = ['sort', 'drive', 'fewMatches', 'probeFacets']

/** Whether the shape filters on nothing but the `allowed` fields (every other one false, null, 0 or empty). */
export function filtersOnly(s: Shape, allowed: (keyof Shape)[]): boolean {
  return (Object.keys(s) as (keyof Shape)[]).every((k) => {
    const v = s[k]
    return HOW_WALKED.includes(k) || allowed.includes(k) || v === false || v === null || v === 0 || (Array.isArray(v) && v.length === 0)
  })
}

/**
 * PostgreSQL's words search on a report row: its stored tsvector (`search_document`, GIN-indexed) against
 * the placeholder `tsMatch`, the same words as `match` written as tsquery text (search-tsquery.ts).
 * PostgreSQL has no FTS table to drive a join: the row is tested, and its planner picks the index.
 */
export const tsMatches = sql`${sql.raw(SEARCH_DOCUMENT_SQL)} @@ to_tsquery('simple', ${sql.placeholder('tsMatch')})`

/** `count(*)` as a number on both engines (PostgreSQL's is a bigint, read as a string). */
export const countAll = () => sql<number>`count(*)`.mapWith(Number)
