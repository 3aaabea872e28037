import type { Ref } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Button, Select, type Option } from '../components'
import type { Member } from '../api/types'
import { filterChips, type FilterLookups } from './filter-chips'
import { withFilter, type FilterKey, type ListQuery } from './list-query'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, SORT_OPTIONS, SOURCE_OPTIONS, SPARK_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { ErrorTypeCount, FacetValues, Label } from './report-types'
import { SearchHelp } from './SearchHelp'

export const SLA_OPTIONS = [
  { value: 'ok', label: 'On track' },
  { value: 'at_risk', label: 'At risk' },
  { value: 'breached', label: 'Breached' },
]

const any = (label: string, options: readonly { value: string; label: string }[]): Option[] => [{ value: '', label }, ...options]
const values = (list: string[] | undefined) => (list ?? []).map((v) => ({ value: v, label: v }))

/** An option for a value the lookups do not (or not yet) know, so the select still shows what the URL filters by. */
const keepUnknown = (options: Option[], value: string | undefined, label: string): Option[] =>
  value && !options.some((o) => o.value === value) ? [...options, { value, label }] : options

/**
 * The list's filter bar: the search box (its syntax one click away), a Filters menu holding every
 * control, the sort, and under them one removable chip per active filter. Every change goes through
 * `onChange` (which puts it in the URL).
 */
export function ReportFilters({
  query,
  onChange,
  labels,
  members,
  errorTypes,
  facets,
  searchRef,
}: {
  query: ListQuery
  onChange: (next: ListQuery, opts?: { replace?: boolean }) => void
  labels: Label[] | undefined
  members: Member[] | undefined
  errorTypes: ErrorTypeCount[] | undefined
  facets: FacetValues | undefined
  searchRef: Ref<HTMLInputElement>
}) {
  const [text, setText] = useState(query.q ?? '')
  // Back/forward or a link changes the URL: the box follows it.
  useEffect(() => setText(query.q ?? ''), [query.q])
  const set = (key: FilterKey | 'sort' | 'spark') => (value: string) => onChange(withFilter(query, key, value))
  const assignees = keepUnknown(
    [{ value: '', label: 'Anyone' }, { value: 'unassigned', label: 'Unassigned' }, ...(members ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email }))],
    query.assigned_to,
    members ? 'Former member' : 'Loading…',
  )
  const labelOptions = keepUnknown(any('Any label', (labels ?? []).map((l) => ({ value: l.id, label: l.name }))), query.label, labels ? 'Deleted label' : 'Loading…')
  const errorOptions = keepUnknown(any('Any error', (errorTypes ?? []).map((e) => ({ value: e.error_type, label: `${e.error_type} (${e.count})` }))), query.error_type, query.error_type ?? '')
  const lookups: FilterLookups = { labels, members }
  const chips = filterChips(query, lookups)
  return (
    <div class="report-filters">
      <div class="filter-bar">
        <form
          role="search"
          class="report-search"
          onSubmit={(e) => {
            e.preventDefault()
            onChange(withFilter(query, 'q', text.trim() ? text : undefined))
          }}
        >
          <label for="report-search" class="sr-only">
            Search reports
          </label>
          <input
            id="report-search"
            ref={searchRef}
            type="search"
            placeholder="Search, or version:1.3.0 platform:Linux environment:production is:unassigned … (press / to focus)"
            value={text}
            maxLength={500}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') e.currentTarget.blur()
            }}
          />
          <Button type="submit">Search</Button>
          <SearchHelp />
        </form>
        <details class="filter-menu" onKeyDown={closeOnEscape}>
          <summary>
            Filters{chips.length > 0 && <span class="filter-count"> ({chips.length})</span>}
          </summary>
          <div class="filter-panel" role="group" aria-label="Filters">
            <Select label="Status" value={query.status ?? ''} onValue={set('status')} options={any('Any status', STATUS_OPTIONS)} />
            <Select label="Priority" value={query.priority ?? ''} onValue={set('priority')} options={any('Any priority', PRIORITY_OPTIONS)} />
            <Select label="Game version" value={query.version ?? ''} onValue={set('version')} options={keepUnknown(any('Any version', values(facets?.versions)), query.version, query.version ?? '')} />
            <Select label="Platform" value={query.platform ?? ''} onValue={set('platform')} options={keepUnknown(any('Any platform', values(facets?.platforms)), query.platform, query.platform ?? '')} />
            <Select label="Environment" value={query.environment ?? ''} onValue={set('environment')} options={keepUnknown(any('Any environment', values(facets?.environments)), query.environment, query.environment ?? '')} />
            <Select label="Runtime" value={query.runtime ?? ''} onValue={set('runtime')} options={keepUnknown(any('Any runtime', values(facets?.runtimes)), query.runtime, query.runtime ?? '')} />
            <Select label="Browser" value={query.browser ?? ''} onValue={set('browser')} options={keepUnknown(any('Any browser', values(facets?.browsers)), query.browser, query.browser ?? '')} />
            <Select label="Assignee" value={query.assigned_to ?? ''} onValue={set('assigned_to')} options={assignees} />
            <Select label="Category" value={query.category ?? ''} onValue={set('category')} options={any('Any category', CATEGORY_OPTIONS)} />
            <Select label="Label" value={query.label ?? ''} onValue={set('label')} options={labelOptions} />
            <Select label="Error type" value={query.error_type ?? ''} onValue={set('error_type')} options={errorOptions} />
            <Select label="Source" value={query.source ?? ''} onValue={set('source')} options={any('Any source', SOURCE_OPTIONS)} />
            <Select label="Regressions" value={query.regression ?? ''} onValue={set('regression')} options={[{ value: '', label: 'Regressed or not' }, { value: 'true', label: 'Regressions only' }]} />
            <Select label="Screenshot" value={query.has_screenshot ?? ''} onValue={set('has_screenshot')} options={[{ value: '', label: 'With or without' }, { value: 'true', label: 'With a screenshot' }]} />
            <Select label="Blocked" value={query.blocked ?? ''} onValue={set('blocked')} options={[{ value: '', label: 'Blocked or not' }, { value: 'true', label: 'Blocked only' }]} />
            <Select label="Due" value={query.overdue ?? ''} onValue={set('overdue')} options={[{ value: '', label: 'Any due date' }, { value: 'true', label: 'Overdue only' }]} />
            <Select label="SLA" value={query.sla ?? ''} onValue={set('sla')} options={any('Any SLA state', SLA_OPTIONS)} />
            <TextFilter label="Player" hint="A player or Steam id" value={query.player} onValue={set('player')} />
            <TextFilter label="Grouping key" hint="A report's fingerprint" value={query.fingerprint} onValue={set('fingerprint')} />
          </div>
        </details>
        <Select label="Sort" value={query.sort ?? 'newest'} onValue={set('sort')} options={[...SORT_OPTIONS]} />
        <Select label="Trend" value={query.spark ?? '14d'} onValue={set('spark')} options={[...SPARK_OPTIONS]} />
      </div>
      {chips.length > 0 && (
        <ul class="filter-chips" aria-label="Active filters">
          {chips.map((c) => (
            <li key={c.key} class="filter-chip">
              <span>{c.text}</span>
              <button type="button" aria-label={`Remove filter ${c.text}`} title="Remove this filter" onClick={() => onChange(withFilter(query, c.key, undefined))}>
                ×
              </button>
            </li>
          ))}
          <li>
            <Button variant="ghost" size="sm" onClick={() => onChange({ page: 1, sort: query.sort, q: query.q })}>
              Clear filters
            </Button>
          </li>
        </ul>
      )}
    </div>
  )
}

/** Escape closes an open menu and gives the focus back to its summary. */
function closeOnEscape(e: KeyboardEvent) {
  const menu = e.currentTarget as HTMLDetailsElement
  if (e.key === 'Escape' && menu.open) {
    menu.open = false
    menu.querySelector('summary')?.focus()
  }
}

/** A free-text filter applied on Enter or when the field is left (an empty field removes it). */
function TextFilter({ label, hint, value, onValue }: { label: string; hint: string; value: string | undefined; onValue: (v: string) => void }) {
  const [text, setText] = useState(value ?? '')
  useEffect(() => setText(value ?? ''), [value])
  const apply = () => {
    if (text.trim() !== (value ?? '')) onValue(text.trim())
  }
  const id = `filter-${label.toLowerCase().replace(/\W+/g, '-')}`
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        placeholder={hint}
        value={text}
        maxLength={200}
        onInput={(e) => setText(e.currentTarget.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            apply()
          }
        }}
      />
    </div>
  )
}
