import { SENTRY_PATH } from './sentry-paths'

const MB = 1024 * 1024

/** Largest body the server accepts at all (replays: 50 MB plus multipart framing). */
export const MAX_REQUEST_BODY = 52 * MB

/**
 * Bun's own cap (`maxRequestBodySize`), a little above every route's limit: past it Bun answers an
 * empty 413 itself, below it the app refuses in the envelope, by Content-Length before reading and
 * by counting a chunked body as it arrives.
 */
export const SERVER_BODY_CAP = MAX_REQUEST_BODY + 12 * MB

/**
 * Longest request URL answered (414 in the envelope past it). Bun refuses request heads over its
 * header limit (16 KB unless `--max-http-header-size` raises it) with an empty 431 before the app
 * sees them, so this stays below that.
 */
export const MAX_URL_LENGTH = 8 * 1024

const limits: [RegExp, number][] = [
  [/^\/session-replays$/, MAX_REQUEST_BODY],
  [/^\/bugs\/submit$/, 20 * MB],
  // Sentry's envelope, store, minidump and Unreal routes: 20 MB on the wire (their decoder caps what they inflate to).
  [SENTRY_PATH, 20 * MB],
  [/^\/projects\/[^/]+\/import$/, 20 * MB],
  // sentry-cli's chunks: at most 4 of 8 MB a request (modules/debug-files/chunk-upload.ts), plus multipart framing.
  [/^\/0\/organizations\/[^/]+\/chunk-upload\/?$/, 33 * MB],
  // Base64 of a 10 MB file is 13.4 MB; multipart uploads of 10 MB carry some framing.
  [/^\/bugs\/[^/]+\/attachments$/, 14 * MB],
  [/^\/projects\/[^/]+\/bugs\/\d+\/attachments$/, 11 * MB],
  [/^\/projects\/[^/]+\/widget-settings\/background$/, 6 * MB],
]

/** Public page routes (outside /api) that take more than 1 MB: the tracker's report form carries a screenshot (5 MB). */
const pageLimits: [RegExp, number][] = [[/^\/tracker\/[^/]+\/report$/, 6 * MB]]

/** Request body limit in bytes for a path outside /api (a public page's form); 1 MB unless listed. */
export function pageBodyLimitFor(path: string): number {
  for (const [re, limit] of pageLimits) if (re.test(path)) return limit
  return 1 * MB
}

/** Request body limit in bytes for a path under /api (prefix removed); 1 MB unless listed. */
export function bodyLimitFor(apiPath: string): number {
  for (const [re, limit] of limits) if (re.test(apiPath)) return limit
  return 1 * MB
}


/** Reads a request body up to `limit` bytes; past it, stops reading and returns null. */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.byteLength
    if (size > limit) {
      await body.cancel().catch(() => {})
      return null
    }
    chunks.push(chunk)
  }
  return Buffer.concat(chunks)
}
