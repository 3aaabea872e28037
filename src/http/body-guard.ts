import { bodyLimitFor, pageBodyLimitFor } from './body-limit'
import { bodyTooLarge, unauthorized } from './errors'
import { SMALL_BODY } from './json-stream/json-body'
import { nestsDeeperThan, parseJsonCapped, tooDeep } from './json-stream/json-depth'
import { apiPathOf, pathOf } from './pipeline'
import { isSentryPath, SENTRY_ROUTE_PREFIX } from './sentry-paths'

/**
 * Routes under /api that take a body without a session: sign-in and its kin, public pages, inbound
 * webhooks, and the SDK routes (their key may sit in the body; their own parser checks a header key
 * before reading and counts bytes). Every other body-taking route needs a session, so a request
 * carrying none is refused before its body is read. test/http/body-limits.test.ts checks this list
 * against the routes' auth guards.
 */
const OPEN_ROUTES =
  /^\/(?:auth\/(?:signup|login|verify-email|resend-verification|forgot-password|reset-password)$|maintenance\/|files\/|tracker\/|roadmap\/|branding\/|billing\/webhook$|discord\/interactions\/|notifications\/unsubscribe$|bugs\/|sessions\/|events\/|perf\/snapshot$|session-replays$)/

/** Whether a body-taking route under /api (prefix removed) answers 401 to a request without credentials. */
export const needsSession = (apiPath: string) => !OPEN_ROUTES.test(apiPath)

/** A session token, the browser session cookie or an SDK key: anything the auth guard could accept. */
function hasCredentials(headers: Headers): boolean {
  if (headers.get('authorization') || headers.get('x-api-key')) return true
  return headers.get('cookie')?.includes('glitchbox_session=') ?? false
}

/** The body stream, ended with 400 once it passes `limit` bytes (nothing past it is read). */
function limitedStream(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let size = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) return controller.close()
      size += value.byteLength
      if (size > limit) {
        void reader.cancel().catch(() => {})
        return controller.error(bodyTooLarge(limit))
      }
      controller.enqueue(value)
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

/** Reads a whole (limited) stream. */
async function bytesOf(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = []
  for await (const chunk of body) chunks.push(chunk)
  return Buffer.concat(chunks)
}

const define = (request: Request, name: 'json' | 'text' | 'arrayBuffer' | 'formData', value: () => Promise<unknown>) =>
  Object.defineProperty(request, name, { value, configurable: true })

/**
 * Makes the request's body readers stop at `limit` bytes, and `json()` cap nesting and give undefined
 * for an empty body (as a route without a body sees it). Elysia's parsers call these; the request
 * object stays the same (hooks and routes key state by it). The SDK's streaming parser reads
 * `request.body` itself and counts its own bytes.
 */
function guardReaders(request: Request, limit: number): void {
  const limited = () => limitedStream(request.body!, limit)
  define(request, 'json', async () => {
    const text = new TextDecoder().decode(await bytesOf(limited()))
    return text ? parseJsonCapped(text) : undefined
  })
  define(request, 'text', async () => new TextDecoder().decode(await bytesOf(limited())))
  define(request, 'arrayBuffer', async () => new Uint8Array(await bytesOf(limited())).buffer)
  define(request, 'formData', async () => {
    const form = await new Response(limited(), { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
    // Elysia parses a field that looks like JSON (`metadata` of a replay): the same cap applies.
    for (const value of form.values()) if (typeof value === 'string' && nestsDeeperThan(value)) throw tooDeep()
    return form
  })
}

/** Parsers of a request without a body see `undefined` from `json()`, as a route without a body does. */
const emptyBody = (request: Request) => define(request, 'json', async () => undefined)

/**
 * The global parse hook: before a body is read, a route that needs a session refuses a request
 * carrying no credentials (401); then every body is read within the route's limit (400 once past
 * it, chunked or not, as the spec's error table has an oversized upload; Sentry's routes, skipped
 * here, answer 413) and JSON is refused past `MAX_JSON_DEPTH` levels (400) while parsing. Small
 * JSON bodies of known length are parsed here; others continue as a guarded request for Elysia's
 * and the routes' own parsers (the SDK's streaming parser, multipart).
 */
export async function guardBody({ request, contentType, route }: { request: Request; contentType: string; route?: string }): Promise<unknown> {
  const apiPath = apiPathOf(pathOf(request.url))
  // The Sentry routes read their bodies themselves: compressed, any Content-Type, keys inside them.
  if (isSentryPath(apiPath) || route?.startsWith(SENTRY_ROUTE_PREFIX)) return undefined
  if (apiPath !== null && needsSession(apiPath) && !hasCredentials(request.headers)) throw unauthorized('missing or invalid session token')
  if (!request.body) {
    emptyBody(request)
    return undefined
  }
  const limit = apiPath === null ? pageBodyLimitFor(pathOf(request.url)) : bodyLimitFor(apiPath)
  const length = request.headers.get('content-length')
  if (length !== null && Number(length) > limit) throw bodyTooLarge(limit)
  if (contentType === 'application/json' && length !== null && Number(length) <= SMALL_BODY) {
    // Bun holds a body to its Content-Length, so this read is bounded already.
    const text = await request.text()
    if (text) return parseJsonCapped(text)
    emptyBody(request)
    return undefined
  }
  guardReaders(request, limit)
  return undefined
}
