// Small pieces of the public pages' routes: query filters, form votes, script answers.
import { AppError } from '../../src/http/errors'
import { type RoadmapQuery, roadmapQuery, type TrackerQuery, trackerQuery } from '../../src/modules/public/public.schemas'

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

/** The roadmap's column and page from a query string; bad values are dropped, as for the tracker. */
export function roadmapFiltersFrom(query: Record<string, unknown>): RoadmapQuery {
  const parsed = roadmapQuery.safeParse({ status: query.status || undefined, page: query.page || undefined })
  return parsed.success ? parsed.data : {}
}

const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']

/**
 * The report form's screenshot as a data URL for the submit service, or why it is refused. An empty
 * file field (nothing chosen) is no screenshot. The stored type is sniffed from the bytes later, as
 * for any SDK upload; this only turns away what is plainly not an image, or too big, with a sentence.
 */
export async function screenshotDataUrl(value: unknown, maxBytes: number): Promise<{ dataUrl?: string; error?: string }> {
  if (!(value instanceof Blob) || value.size === 0) return {}
  if (!SCREENSHOT_TYPES.includes(value.type)) return { error: 'The screenshot must be a PNG, JPEG, GIF or WebP image.' }
  if (value.size > maxBytes) return { error: `The screenshot is too big: at most ${Math.round(maxBytes / 1024 / 1024)} MB.` }
  return { dataUrl: `data:${value.type};base64,${Buffer.from(await value.arrayBuffer()).toString('base64')}` }
}

/** A vote through a form: 403 (voting off) sends the visitor back unchanged; 404 shows the 404 page. */
export async function voteOrIgnore(vote: () => Promise<unknown>): Promise<void> {
  try {
    await vote()
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
