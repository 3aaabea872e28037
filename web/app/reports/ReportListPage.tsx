import './reports.css'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { createResource } from '../api/resource'
import type { PermissionKey } from '../api/types'
import { Button, ButtonLink, EmptyState, ErrorState, Page, Spinner, toast } from '../components'
import { currentSearch, navigate, type RouteProps } from '../router'
import { BulkBar } from './BulkBar'
import { lastOpened } from './last-opened'
import { exportHref, FILTER_KEYS, filterOf, hasFilters, listHref, listQueryString, parseListQuery, reportHref, withPage, type ListQuery } from './list-query'
import { newReportsMessage } from './new-reports'
import { usePermissions, useProjectLookups } from './project-lookups'
import { QuickEditDialog, type QuickEdit } from './QuickEditDialog'
import { ReportFilters } from './ReportFilters'
import { ReportRows } from './ReportRows'
import { reportsApi } from './reports-api'
import type { ReportListPage as ReportListPageData } from './report-types'
import { ShortcutsDialog } from './ShortcutsDialog'
import { createShortcutDispatcher, LIST_SHORTCUTS, type ListAction } from './shortcuts'
import { useNewReports } from './use-new-reports'
import { projects } from '../session'
import { SavedViewTabs } from '../workflow/SavedViewTabs'

/** `/projects/:slug/reports`: the filtered, searchable, paged list; everything that selects the page lives in the URL. */
export function ReportListPage({ params }: RouteProps) {
  const slug = params.slug!
  const projectId = projects.value?.find((p) => p.slug === slug)?.id
  const search = currentSearch.value
  const query = useMemo(() => parseListQuery(search), [search])
  const key = `${slug}${listQueryString(query)}`
  const list = useMemo(() => createResource((signal) => reportsApi.list(slug, query, signal)), [key])
  useEffect(() => void list.reload(), [list])
  const lookups = useProjectLookups(slug)
  const members = lookups.members.data.value
  const labels = lookups.labels.data.value
  const { reason } = usePermissions(slug)
  const fresh = useNewReports(slug, query)

  // The cursor also lives in a ref: keys typed faster than the page re-renders (k then o) must act on
  // the row the previous key moved to, not on the one last painted.
  const cursorRef = useRef(0)
  const [cursor, setCursorState] = useState(0)
  const setCursor = (i: number) => {
    cursorRef.current = i
    setCursorState(i)
  }
  const [selected, setSelected] = useState<Set<number>>(new Set())
  // "Select all N matching": the bulk actions then take the list's filter, every page of it.
  const [allMatching, setAllMatching] = useState(false)
  const [quick, setQuick] = useState<QuickEdit | null>(null)
  const [help, setHelp] = useState(false)
  const searchRef = useRef<HTMLInputElement>(null)
  // A new page of results starts with the cursor on its first row and nothing selected.
  useEffect(() => {
    setCursor(0)
    setSelected(new Set())
    setAllMatching(false)
  }, [key])

  const page = list.data.value
  const bugs = page?.bugs ?? []
  // Back from a report: the cursor goes to that report, so j/k carry on from where the user was.
  useEffect(() => {
    if (!page) return
    const i = page.bugs.findIndex((b) => b.report_number === lastOpened.number)
    if (i >= 0) setCursor(i)
    lastOpened.number = null
  }, [page])
  const go = (next: ListQuery, opts?: { replace?: boolean }) => navigate(listHref(slug, next), opts)
  const reload = () => {
    void list.reload()
    void lookups.errorTypes.reload()
    void lookups.facets.reload()
  }
  const toggle = (n: number) => {
    setAllMatching(false)
    setSelected((s) => {
      const next = new Set(s)
      if (!next.delete(n)) next.add(n)
      return next
    })
  }
  const clearSelection = () => {
    setAllMatching(false)
    setSelected(new Set())
  }
  const current = () => bugs[cursorRef.current]
  /** Opens the e/a/l dialog, or says which permission is missing (the server would answer 403). */
  const quickEdit = (mode: QuickEdit, needs: PermissionKey[]) => {
    const why = needs.map(reason).find(Boolean)
    if (why) toast(why, 'info')
    else if (targets().length > 0) setQuick(mode)
  }
  const targets = () => (selected.size > 0 ? [...selected] : current() ? [current()!.report_number] : [])

  // Rebuilt on every render and read through a ref, so a key pressed right after new rows are painted
  // already sees them (an effect-registered handler would still hold the previous render's rows).
  const dispatch = useRef<ReturnType<typeof createShortcutDispatcher<ListAction>> | null>(null)
  dispatch.current = createShortcutDispatcher(LIST_SHORTCUTS, {
    next: () => setCursor(Math.min(cursorRef.current + 1, Math.max(0, bugs.length - 1))),
    previous: () => setCursor(Math.max(cursorRef.current - 1, 0)),
    select: () => current() && toggle(current()!.report_number),
    open: () => current() && navigate(reportHref(slug, current()!.report_number, query)),
    search: () => {
      searchRef.current?.focus()
      searchRef.current?.select()
    },
    status: () => quickEdit('status', ['bugs.edit']),
    assign: () => quickEdit('assign', ['bugs.edit', 'bugs.assign']),
    label: () => quickEdit('label', ['labels.manage']),
    help: () => setHelp(true),
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A modal dialog keeps the focus inside it, so its keys are its own (the `open` attribute itself
      // lingers for a moment after the dialog was dismissed, so it is no guide).
      if (e.target instanceof Element && e.target.closest('dialog')) return
      dispatch.current?.(e)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  useEffect(() => {
    document.querySelector<HTMLElement>('.report-table tr.is-current')?.scrollIntoView?.({ block: 'nearest' })
  }, [cursor])

  const total = page ? `${page.total.toLocaleString()}${page.total_capped ? '+' : ''} report${page.total === 1 ? '' : 's'}` : ''
  return (
    <Page
      title="Reports"
      subtitle={total}
      actions={
        <>
          <ButtonLink href={`/projects/${encodeURIComponent(slug)}/reports/new`} variant="primary" reason={reason('bugs.create')}>
            New report
          </ButtonLink>
          <ButtonLink href={`/projects/${encodeURIComponent(slug)}/import`} reason={reason('bugs.create')}>
            Import
          </ButtonLink>
          <ButtonLink href={exportHref(slug, query)} download="" reason={reason('bugs.view')}>
            Export CSV
          </ButtonLink>
          <Button variant="ghost" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            Keyboard shortcuts
          </Button>
        </>
      }
    >
      {fresh.count > 0 && (
        <div class="notice new-reports" role="status">
          <Button
            variant="primary"
            size="sm"
            onClick={() => {
              fresh.reset()
              reload()
            }}
          >
            {newReportsMessage(fresh, hasFilters(query))}: show them
          </Button>
        </div>
      )}
      {projectId && <SavedViewTabs slug={slug} projectId={projectId} search={listQueryString(query).replace(/^\?/, '')} />}
      <ReportFilters query={query} onChange={go} labels={labels} members={members} errorTypes={lookups.errorTypes.data.value} facets={lookups.facets.data.value} searchRef={searchRef} />
      {(query.status || query.priority) && FILTER_KEYS.some((k) => k !== 'status' && k !== 'priority' && query[k] !== undefined) && (
        <p class="muted small">The CSV export applies the status and priority filters only.</p>
      )}
      {page && selected.size > 0 && (
        <>
          <SelectAllMatching page={page} pageSelected={bugs.length > 0 && bugs.every((b) => selected.has(b.report_number))} all={allMatching} onAll={setAllMatching} />
          <BulkBar
            slug={slug}
            selection={allMatching ? { filter: filterOf(query), count: page.total } : { numbers: [...selected] }}
            candidates={allMatching ? bugs : bugs.filter((b) => selected.has(b.report_number))}
            members={members}
            labels={labels}
            onDone={reload}
            onClear={clearSelection}
          />
        </>
      )}
      {list.error.value && !page ? (
        <ErrorState
          title={list.error.value.status === 404 ? 'Project not found' : list.error.value.status === 403 ? 'Not available to you' : list.error.value.status === 400 ? 'The search was not understood' : 'Could not load the reports'}
          message={list.error.value.message}
          onRetry={[400, 403, 404].includes(list.error.value.status) ? undefined : reload}
        />
      ) : !page ? (
        <Spinner label="Loading reports…" />
      ) : bugs.length === 0 ? (
        hasFilters(query) ? (
          <EmptyState title="No report matches" action={<ButtonLink href={listHref(slug, { page: 1 })}>Clear filters</ButtonLink>}>
            Try fewer filters or other search words.
          </EmptyState>
        ) : query.page > 1 ? (
          <EmptyState title="This page is empty" action={<ButtonLink href={listHref(slug, withPage(query, 1))}>Go to the first page</ButtonLink>} />
        ) : (
          <EmptyState title="No reports yet">Reports appear here when players or the game SDK file them, or when your team does.</EmptyState>
        )
      ) : (
        <div aria-busy={list.loading.value || undefined}>
          {list.error.value &&
            (list.error.value.status === 400 ? (
              <ErrorState title="The search was not understood" message={list.error.value.message} />
            ) : (
              <ErrorState title="Could not refresh the reports" message={list.error.value.message} onRetry={reload} />
            ))}
          <ReportRows
            slug={slug}
            query={query}
            bugs={bugs}
            members={members}
            cursor={cursor}
            selected={selected}
            onToggle={toggle}
            onToggleAll={(on) => {
              setAllMatching(false)
              setSelected(on ? new Set(bugs.map((b) => b.report_number)) : new Set())
            }}
            onCursor={setCursor}
            escalating={new Set(page.escalating)}
          />
          <Pager slug={slug} query={query} totalPages={page.total_pages} />
        </div>
      )}
      <QuickEditDialog
        slug={slug}
        mode={quick}
        targets={targets()}
        members={members}
        labels={labels}
        onClose={() => setQuick(null)}
        onDone={reload}
      />
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} shortcuts={LIST_SHORTCUTS} />
    </Page>
  )
}

/** Bulk actions by filter take at most this many reports (the server's cap). */
const BULK_FILTER_CAP = 10_000

/**
 * With the whole page checked and more pages behind it: the offer to select every report the list
 * matches (the bulk actions then send the filter), or why not (past the server's 10,000).
 */
function SelectAllMatching({ page, pageSelected, all, onAll }: { page: ReportListPageData; pageSelected: boolean; all: boolean; onAll: (on: boolean) => void }) {
  if (!pageSelected || page.total <= page.bugs.length) return null
  const total = page.total.toLocaleString()
  return (
    <p class="notice select-all" role="status">
      {all ? (
        <>
          All {total} matching reports are selected.{' '}
          <Button variant="ghost" size="sm" onClick={() => onAll(false)}>
            Select only the {page.bugs.length} on this page
          </Button>
        </>
      ) : page.total_capped || page.total > BULK_FILTER_CAP ? (
        <>All {page.bugs.length} on this page are selected. More than {BULK_FILTER_CAP.toLocaleString()} reports match: narrow the filters to act on all of them at once.</>
      ) : (
        <>
          All {page.bugs.length} on this page are selected.{' '}
          <Button variant="ghost" size="sm" onClick={() => onAll(true)}>
            Select all {total} matching
          </Button>
        </>
      )}
    </p>
  )
}

/** Previous/next page links and the position. */
function Pager({ slug, query, totalPages }: { slug: string; query: ListQuery; totalPages: number }) {
  if (totalPages <= 1 && query.page === 1) return null
  return (
    <nav class="pager" aria-label="Pages">
      {query.page > 1 ? <a href={listHref(slug, withPage(query, query.page - 1))} rel="prev">Previous page</a> : <span class="muted">Previous page</span>}
      <span>
        Page {query.page} of {Math.max(totalPages, 1)}
      </span>
      {query.page < totalPages ? <a href={listHref(slug, withPage(query, query.page + 1))} rel="next">Next page</a> : <span class="muted">Next page</span>}
    </nav>
  )
}
