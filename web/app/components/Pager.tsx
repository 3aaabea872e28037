import { setQuery } from '../router'
import { Button } from './Button'

/** How many pages `total` rows make at `perPage` a page (at least one, so an empty list reads "page 1 of 1"). */
export const pageCount = (total: number, perPage: number) => Math.max(1, Math.ceil(total / perPage))

/**
 * Previous and next page under a paged table, through the URL's `page` query (page 1 drops it), so that
 * back/forward and shared links keep the page: "Page 2 of 5 · 230 players".
 */
export function Pager({ label, page, pages, count }: { label: string; page: number; pages: number; count: string }) {
  const go = (to: number) => setQuery({ page: to > 1 ? to : null })
  return (
    <nav class="pager" aria-label={label}>
      <Button size="sm" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous page
      </Button>
      <span class="small">
        Page {page} of {pages} · {count}
      </span>
      <Button size="sm" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next page
      </Button>
    </nav>
  )
}
