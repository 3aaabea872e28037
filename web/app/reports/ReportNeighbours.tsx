import { useEffect, useRef, useState } from 'preact/hooks'
import { Button } from '../components'
import { navigate } from '../router'
import { listHref, reportHref, withPage, type ListQuery } from './list-query'
import { neighbours, resolveNeighbour } from './prev-next'
import { reportsApi } from './reports-api'
import { ShortcutsDialog } from './ShortcutsDialog'
import { createShortcutDispatcher, REPORT_SHORTCUTS, type ReportAction } from './shortcuts'

type Found = { number: number; page: number } | null

/** Back to the list the report was opened from, and its previous and next report in that list's order. */
export function ReportNeighbours({ slug, number, from }: { slug: string; number: number; from: ListQuery | null }) {
  const key = from ? JSON.stringify(from) : ''
  // Tagged with the report and list they were found for: right after a move to another report the
  // old neighbours must not be offered (the component stays mounted across reports).
  const [found, setFound] = useState<{ for: string; prev: Found; next: Found; index: number } | null>(null)
  const current = `${number}|${key}`
  const state = found?.for === current ? { ...found, loading: false } : { prev: null, next: null, index: -1, loading: from !== null }
  useEffect(() => {
    if (!from) return
    const ctrl = new AbortController()
    const numbersOf = async (page: number) => (await reportsApi.list(slug, withPage(from, page), ctrl.signal)).bugs.map((b) => b.report_number)
    void (async () => {
      try {
        const page = await reportsApi.list(slug, from, ctrl.signal)
        const n = neighbours({ numbers: page.bugs.map((b) => b.report_number), page: from.page, totalPages: page.total_pages }, number)
        const [prev, next] = await Promise.all([resolveNeighbour(n.prev, numbersOf), resolveNeighbour(n.next, numbersOf)])
        setFound({ for: current, prev, next, index: n.index })
      } catch {
        if (!ctrl.signal.aborted) setFound({ for: current, prev: null, next: null, index: -1 })
      }
    })()
    return () => ctrl.abort()
  }, [slug, number, key])
  const back = listHref(slug, from ?? { page: 1 })
  const hrefOf = (found: Found) => (found && from ? reportHref(slug, found.number, withPage(from, found.page)) : null)
  const [help, setHelp] = useState(false)
  // Read through a ref so the one keydown listener always sees the neighbours of this render.
  const dispatch = useRef<ReturnType<typeof createShortcutDispatcher<ReportAction>> | null>(null)
  dispatch.current = createShortcutDispatcher(REPORT_SHORTCUTS, {
    next: () => {
      const href = hrefOf(state.next)
      if (href) navigate(href)
    },
    previous: () => {
      const href = hrefOf(state.prev)
      if (href) navigate(href)
    },
    back: () => navigate(back),
    help: () => setHelp(true),
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Keys typed inside a dialog (it keeps the focus while open) are the dialog's.
      if (!(e.target instanceof Element && e.target.closest('dialog'))) dispatch.current?.(e)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  const link = (found: Found, text: string, rel: string, key: string) =>
    hrefOf(found) ? (
      <a href={hrefOf(found)!} rel={rel} aria-keyshortcuts={key}>
        {text}
      </a>
    ) : (
      <span class="muted" aria-disabled="true">
        {text}
      </span>
    )
  return (
    <nav class="report-neighbours" aria-label="Report navigation" aria-busy={state.loading || undefined}>
      <a href={back} aria-keyshortcuts="u">
        {from ? 'Back to the list' : 'All reports'}
      </a>
      {from && (
        <>
          {link(state.prev, 'Previous report', 'prev', 'k')}
          {link(state.next, 'Next report', 'next', 'j')}
          {!state.loading && state.index === -1 && <span class="muted small">Not in the list any more</span>}
        </>
      )}
      <Button variant="ghost" size="sm" aria-keyshortcuts="?" onClick={() => setHelp(true)}>
        Keyboard shortcuts
      </Button>
      <ShortcutsDialog open={help} onClose={() => setHelp(false)} shortcuts={REPORT_SHORTCUTS} />
    </nav>
  )
}
