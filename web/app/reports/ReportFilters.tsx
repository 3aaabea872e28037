import type { Ref } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { Button, Select, type Option } from '../components'
import type { Member } from '../api/types'
import { hasFilters, withFilter, type FilterKey, type ListQuery } from './list-query'
import { CATEGORY_OPTIONS, PRIORITY_OPTIONS, SORT_OPTIONS, SOURCE_OPTIONS, STATUS_OPTIONS } from './report-enums'
import type { ErrorTypeCount, Label } from './report-types'
import { SearchHelp } from './SearchHelp'

const SLA_OPTIONS = [
  { value: 'ok', label: 'On track' },
  { value: 'at_risk', label: 'At risk' },
  { value: 'breached', label: 'Breached' },
]

const any = (label: string, options: readonly { value: string; label: string }[]): Option[] => [{ value: '', label }, ...options]

/** An option for a value the lookups do not (or not yet) know, so the select still shows what the URL filters by. */
const keepUnknown = (options: Option[], value: string | undefined, label: string): Option[] =>
  value && !options.some((o) => o.value === value) ? [...options, { value, label }] : options

/** The list's search box, filters and sort; every change goes through `onChange` (which puts it in the URL). */
export function ReportFilters({
  query,
  onChange,
  labels,
  members,
  errorTypes,
  searchRef,
}: {
  query: ListQuery
  onChange: (next: ListQuery, opts?: { replace?: boolean }) => void
  labels: Label[] | undefined
  members: Member[] | undefined
  errorTypes: ErrorTypeCount[] | undefined
  searchRef: Ref<HTMLInputElement>
}) {
  const [text, setText] = useState(query.q ?? '')
  // Back/forward or a link changes the URL: the box follows it.
  useEffect(() => setText(query.q ?? ''), [query.q])
  const set = (key: FilterKey | 'sort') => (value: string) => onChange(withFilter(query, key, value))
  const assignees = keepUnknown(
    [{ value: '', label: 'Anyone' }, { value: 'unassigned', label: 'Unassigned' }, ...(members ?? []).map((m) => ({ value: m.user_id, label: m.name || m.email }))],
    query.assigned_to,
    members ? 'Former member' : 'Loading…',
  )
  const labelOptions = keepUnknown(any('Any label', (labels ?? []).map((l) => ({ value: l.id, label: l.name }))), query.label, labels ? 'Deleted label' : 'Loading…')
  const errorOptions = keepUnknown(any('Any error', (errorTypes ?? []).map((e) => ({ value: e.error_type, label: `${e.error_type} (${e.count})` }))), query.error_type, query.error_type ?? '')
  return (
    <div class="report-filters">
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
          placeholder="Search reports (press / to focus)"
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
      <div class="report-filter-grid">
        <Select label="Status" value={query.status ?? ''} onValue={set('status')} options={any('Any status', STATUS_OPTIONS)} />
        <Select label="Priority" value={query.priority ?? ''} onValue={set('priority')} options={any('Any priority', PRIORITY_OPTIONS)} />
        <Select label="Category" value={query.category ?? ''} onValue={set('category')} options={any('Any category', CATEGORY_OPTIONS)} />
        <Select label="Assignee" value={query.assigned_to ?? ''} onValue={set('assigned_to')} options={assignees} />
        <Select label="Label" value={query.label ?? ''} onValue={set('label')} options={labelOptions} />
        <Select label="Source" value={query.source ?? ''} onValue={set('source')} options={any('Any source', SOURCE_OPTIONS)} />
        <Select label="Error type" value={query.error_type ?? ''} onValue={set('error_type')} options={errorOptions} />
        <Select label="Blocked" value={query.blocked ?? ''} onValue={set('blocked')} options={[{ value: '', label: 'Blocked or not' }, { value: 'true', label: 'Blocked only' }]} />
        <Select label="Due" value={query.overdue ?? ''} onValue={set('overdue')} options={[{ value: '', label: 'Any due date' }, { value: 'true', label: 'Overdue only' }]} />
        <Select label="SLA" value={query.sla ?? ''} onValue={set('sla')} options={any('Any SLA state', SLA_OPTIONS)} />
        <Select label="Sort" value={query.sort ?? 'newest'} onValue={set('sort')} options={[...SORT_OPTIONS]} />
      </div>
      {hasFilters(query) && (
        <Button variant="ghost" size="sm" onClick={() => onChange({ page: 1, sort: query.sort })}>
          Clear filters
        </Button>
      )}
    </div>
  )
}
