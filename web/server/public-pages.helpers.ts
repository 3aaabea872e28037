// Small pieces of the public pages' routes: query filters, form votes, script answers.
import { AppError } from '../../src/http/errors'
import { type TrackerQuery, trackerQuery } from '../../src/modules/public/public.schemas'

/**
 * The tracker filters of a query string, each checked on its own: empty fields (the GET form sends
 * every select) and bad values (an old link, a typo) are dropped rather than refused.
 */
export function filtersFrom(query: Record<string, unknown>): TrackerQuery {
  const out: Record<string, unknown> = {}
  for (const key of ['status', 'category', 'q', 'page'] as const) {
    const value = typeof query[key] === 'string' ? (query[key] as string).trim() : undefined
    if (!value) continue
    const one = trackerQuery.safeParse({ [key]: value })
    if (one.success) out[key] = one.data[key]
  }
  return out as TrackerQuery
}

/** A vote through a form: 403 (voting off) sends the visitor back unchanged; 404 shows the 404 page. */
export function voteOrIgnore(vote: () => unknown): void {
  try {
    vote()
  } catch (e) {
    if (e instanceof AppError && e.status === 403) return
    throw e
  }
}

export function scriptResponse(body: Uint8Array<ArrayBuffer>, hash: string, cacheControl: string): Response {
  return new Response(body, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': cacheControl,
      etag: `"${hash}"`,
      'x-content-type-options': 'nosniff',
      // Game pages on other origins load the widget.
      'cross-origin-resource-policy': 'cross-origin',
    },
  })
}
