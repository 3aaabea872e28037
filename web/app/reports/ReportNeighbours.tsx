import { useEffect, useState } from 'preact/hooks'
import { listHref, reportHref, withPage, type ListQuery } from './list-query'
import { neighbours, resolveNeighbour } from './prev-next'
import { reportsApi } from './reports-api'

type Found = { number: number; page: number } | null

/** Back to the list the report was opened from, and its previous and next report in that list's order. */
export function ReportNeighbours({ slug, number, from }: { slug: string; number: number; from: ListQuery | null }) {
  const [state, setState] = useState<{ prev: Found; next: Found; index: number; loading: boolean }>({ prev: null, next: null, index: -1, loading: from !== null })
  const key = from ? JSON.stringify(from) : ''
  useEffect(() => {
    if (!from) return
    const ctrl = new AbortController()
    const numbersOf = async (page: number) => (await reportsApi.list(slug, withPage(from, page), ctrl.signal)).bugs.map((b) => b.report_number)
    setState((s) => ({ ...s, loading: true }))
    void (async () => {
      try {
        const page = await reportsApi.list(slug, from, ctrl.signal)
        const n = neighbours({ numbers: page.bugs.map((b) => b.report_number), page: from.page, totalPages: page.total_pages }, number)
        const [prev, next] = await Promise.all([resolveNeighbour(n.prev, numbersOf), resolveNeighbour(n.next, numbersOf)])
        setState({ prev, next, index: n.index, loading: false })
      } catch {
        if (!ctrl.signal.aborted) setState({ prev: null, next: null, index: -1, loading: false })
      }
    })()
    return () => ctrl.abort()
  }, [slug, number, key])
  const back = listHref(slug, from ?? { page: 1 })
  const link = (found: Found, text: string, rel: string) =>
    found && from ? (
      <a href={reportHref(slug, found.number, withPage(from, found.page))} rel={rel}>
        {text}
      </a>
    ) : (
      <span class="muted" aria-disabled="true">
        {text}
      </span>
    )
  return (
    <nav class="report-neighbours" aria-label="Report navigation" aria-busy={state.loading || undefined}>
      <a href={back}>{from ? 'Back to the list' : 'All reports'}</a>
      {from && (
        <>
          {link(state.prev, 'Previous report', 'prev')}
          {link(state.next, 'Next report', 'next')}
          {!state.loading && state.index === -1 && <span class="muted small">Not in the list any more</span>}
        </>
      )}
    </nav>
  )
}
