import type { Member } from '../api/types'
import { FILTER_KEYS, type FilterKey, type ListQuery } from './list-query'
import { memberName } from './project-lookups'
import { CATEGORY_OPTIONS, labelOf, PRIORITY_OPTIONS, SOURCE_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { Label } from './report-types'

export interface FilterLookups {
  labels: Label[] | undefined
  members: Member[] | undefined
}

export interface FilterChip {
  key: Exclude<FilterKey, 'q'>
  text: string
}

const SLA_LABELS: Record<string, string> = { ok: 'On track', at_risk: 'At risk', breached: 'Breached' }

/** What each filter says in a chip, from its value. */
const DESCRIBE: Record<Exclude<FilterKey, 'q'>, (v: string, l: FilterLookups) => string> = {
  status: (v) => `Status: ${labelOf(STATUS_OPTIONS, v)}`,
  priority: (v) => `Priority: ${labelOf(PRIORITY_OPTIONS, v)}`,
  category: (v) => `Category: ${labelOf(CATEGORY_OPTIONS, v)}`,
  assigned_to: (v, l) => (v === 'unassigned' ? 'Unassigned' : `Assignee: ${l.members ? memberName(l.members, v) : '…'}`),
  label: (v, l) => `Label: ${l.labels ? (l.labels.find((x) => x.id === v)?.name ?? 'deleted label') : '…'}`,
  source: (v) => `Source: ${labelOf(SOURCE_OPTIONS, v)}`,
  error_type: (v) => `Error: ${v}`,
  version: (v) => `Version: ${v}`,
  platform: (v) => `Platform: ${v}`,
  runtime: (v) => `Runtime: ${v}`,
  browser: (v) => `Browser: ${v}`,
  environment: (v) => `Environment: ${v}`,
  player: (v) => `Player: ${v}`,
  fingerprint: (v) => `Grouping key: ${v.length > 12 ? `${v.slice(0, 8)}…` : v}`,
  regression: () => 'Regressions only',
  has_screenshot: () => 'With a screenshot',
  blocked: () => 'Blocked only',
  overdue: () => 'Overdue only',
  sla: (v) => `SLA: ${SLA_LABELS[v] ?? v}`,
  custom_field: (v) => `Custom field: ${v.slice(v.indexOf(':') + 1)}`,
}

/** One chip per active filter, in URL order; the search words stay in the search box. */
export function filterChips(query: ListQuery, lookups: FilterLookups): FilterChip[] {
  return FILTER_KEYS.filter((k): k is Exclude<FilterKey, 'q'> => k !== 'q' && query[k] !== undefined && query[k] !== '').map((key) => ({ key, text: DESCRIBE[key](query[key]!, lookups) }))
}
