import { useEffect, useRef, useState } from 'preact/hooks'
import { listQueryString, newestMatching, type ListQuery } from './list-query'
import { countNewReports } from './new-reports'
import { reportsApi } from './reports-api'

export const NEW_REPORTS_POLL_MS = 20_000

/**
 * Counts reports filed since the list was opened that match its filters (search included): every 20 s
 * (while the tab is visible) reads the newest page of the filtered list, whatever its sort and page,
 * so a team watching "critical, unassigned" is not told about reports it will not see. A change of
 * filters, or `reset`, takes the current newest matching report as the new starting point.
 */
export function useNewReports(slug: string, query: ListQuery) {
  const filters = newestMatching(query)
  const filterKey = listQueryString(filters)
  const baseline = useRef<number | null>(null)
  const [state, setState] = useState({ count: 0, more: false })
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    baseline.current = null
    setState({ count: 0, more: false })
    let stopped = false
    const ctrl = new AbortController()
    const poll = async () => {
      if (stopped || (typeof document !== 'undefined' && document.visibilityState === 'hidden' && baseline.current !== null)) return
      try {
        const page = await reportsApi.list(slug, filters, ctrl.signal)
        const numbers = page.bugs.map((b) => b.report_number)
        if (baseline.current === null) baseline.current = Math.max(0, ...numbers)
        else if (!stopped) setState(countNewReports(baseline.current, numbers))
      } catch {
        // A failed poll is retried at the next tick; the list itself shows real errors.
      }
    }
    void poll()
    const timer = setInterval(poll, NEW_REPORTS_POLL_MS)
    return () => {
      stopped = true
      ctrl.abort()
      clearInterval(timer)
    }
  }, [slug, filterKey, generation])
  return { ...state, reset: () => setGeneration((g) => g + 1) }
}
