import { Elysia } from 'elysia'
import type { AppDeps } from '../app-deps'
import { throttledErrorLog } from '../lib/throttled-log'
import { bodyLimitFor, MAX_URL_LENGTH } from './body-limit'
import { guardBody } from './body-guard'
import { clientIp } from './client-ip'
import { DATABASE_UNREADABLE, databaseReadWatchOf } from './database-unreadable'
import { DISK_FULL, diskWatchOf, isDiskFull } from './disk-full'
import { AppError, bodyTooLarge, describeIssues, payloadTooLarge, tooLargeMessage } from './errors'
import { movedPublicUrl } from './moved-slugs'
import { budgetRules, rateLimited } from './rate-limit'
import { sdkKeyOf } from './sdk-refusals'
import { isSentryCliPath, isSentryPath, SENTRY_ROUTE_PREFIX } from './sentry-paths'

/** Methods that change nothing: they are served while the database file cannot be read. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

const API_PREFIX = /^\/api(?:\/v1)?(?=\/|$)/

/** The path under /api with its /api or /api/v1 prefix removed, or null outside the API. */
export function apiPathOf(pathname: string): string | null {
  const m = API_PREFIX.exec(pathname)
  return m ? pathname.slice(m[0].length) || '/' : null
}

/** The path of a request URL without building a URL object (this runs on every request). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const q = url.indexOf('?', start)
  return q < 0 ? url.slice(start) : url.slice(start, q)
}

/** Whether a path's %-escapes decode to well-formed UTF-8 (`%FF`, `%zz` and lone surrogates such as `%ED%A0%80` do not). */
function decodesCleanly(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

/** Wraps a plain API result in the success envelope; Responses (files, CSV) and non-API routes (docs) pass through. */
function envelope(request: Request, response: unknown) {
  if (response instanceof Response || response instanceof Blob) return response
  if (apiPathOf(pathOf(request.url)) === null) return response
  return { ok: true, data: response ?? null }
}

/**
 * Cross-cutting HTTP behaviour, registered once on the root app: request ids, rate limits,
 * body limits, the envelope on success and the mapping of every error to `{ok:false, error}`.
 */
export function httpPipeline(deps: AppDeps) {
  const { rateLimiter, config, logger } = deps
  const budgetsFor = budgetRules(config)
  const diskWatch = diskWatchOf(deps)
  const databaseWatch = databaseReadWatchOf(deps)
  const logUnreadable = throttledErrorLog(deps)
  // Request ids: the caller's X-Request-Id, else a per-process prefix and a counter (cheaper than a UUID per request).
  const idPrefix = crypto.randomUUID().slice(0, 8)
  let counter = 0
  const requestIdOf = (request: Request) => request.headers.get('x-request-id')?.slice(0, 64) || `${idPrefix}-${(++counter).toString(36)}`

  /** Every error as `{ok: false, error}` with its status and headers set. */
  type ErrorContext = { code: unknown; error: unknown; set: { status?: unknown; headers: Record<string, unknown> }; request: Request }
  function errorAnswer({ code, error, set, request }: ErrorContext): { ok: false; error: string } & Record<string, unknown> {
    if (isDiskFull(error)) {
      diskWatch.failed(error)
      set.status = 507
      return { ok: false, error: DISK_FULL }
    }
    // A route's own body parser (streamed uploads) refuses with an AppError (401, 400 past its limit) that Elysia wraps as a parse error.
    const appError = error instanceof AppError ? error : code === 'PARSE' && (error as { cause?: unknown }).cause instanceof AppError ? ((error as { cause: AppError }).cause) : null
    if (appError) {
      set.status = appError.status
      Object.assign(set.headers, appError.headers)
      return { ok: false, error: appError.messageFor(config), ...appError.details }
    }
    switch (code) {
      case 'VALIDATION': {
        set.status = 400
        const issues = (error as { all?: unknown }).all
        return { ok: false, error: Array.isArray(issues) ? describeIssues(issues as never) : 'invalid request' }
      }
      case 'PARSE':
        set.status = 400
        return { ok: false, error: 'malformed request body (expected valid JSON)' }
      case 'NOT_FOUND':
        set.status = 404
        return { ok: false, error: 'not found' }
      case 'INVALID_COOKIE_SIGNATURE':
      case 'INVALID_FILE_TYPE':
        set.status = 400
        return { ok: false, error: 'invalid request' }
    }
    const status = (error as { status?: unknown }).status
    if (typeof status === 'number' && status >= 400 && status < 500) {
      set.status = status
      return { ok: false, error: status === 413 ? 'request body too large' : 'invalid request' }
    }
    set.status = 500
    // The id is given to the client and logged with the stack, so a report can be matched to its cause.
    const requestId = (set.headers['x-request-id'] as string | undefined) ?? requestIdOf(request)
    logger.error('unhandled error', {
      request_id: requestId,
      method: request.method,
      path: pathOf(request.url),
      error: error instanceof Error ? error.message : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    })
    return { ok: false, error: `internal server error (request id ${requestId})` }
  }

  return new Elysia({ name: 'http-pipeline', seed: deps.instanceId })
    .onRequest(({ request, set, server }) => {
      set.headers['x-request-id'] = requestIdOf(request)
      // Browsers must not read a JSON answer (or an uploaded file) as HTML or script.
      set.headers['x-content-type-options'] = 'nosniff'
      if (request.url.length > MAX_URL_LENGTH) throw new AppError(414, `request URL too long (max ${MAX_URL_LENGTH / 1024} KB)`)
      // A write the damaged file would lose at the next start is refused rather than acknowledged.
      if (!READ_METHODS.has(request.method)) {
        const cause = databaseWatch.unreadable()
        if (cause) {
          logUnreadable('database', 'a write was refused: the database file cannot be read', { error: cause, data_dir: config.dataDir })
          throw new AppError(503, DATABASE_UNREADABLE, { 'retry-after': '60' })
        }
      }
      const apiPath = apiPathOf(pathOf(request.url))
      if (apiPath === null) return
      // A path parameter that is not valid percent-encoded UTF-8 reaches handlers as null: refuse it here, once for every route.
      if (apiPath.includes('%') && !decodesCleanly(apiPath)) throw new AppError(400, 'malformed percent-encoding in the request path')
      const budgets = budgetsFor(request.method, apiPath)
      if (budgets.length) {
        const decision = rateLimiter.hit(clientIp(request, server, config.trustProxy), budgets)
        set.headers['x-ratelimit-limit'] = String(decision.limit)
        set.headers['x-ratelimit-remaining'] = String(decision.remaining)
        set.headers['x-ratelimit-reset'] = String(decision.reset)
        if (!decision.allowed) {
          // Counted per SDK key for the setup checklist, which tells the studio how to raise the budget.
          const key = decision.refusedBy.includes('public') ? sdkKeyOf(request, apiPath) : null
          if (key) deps.sdkRefusals.record(key)
          throw rateLimited(decision, isSentryPath(apiPath))
        }
      }
      const length = Number(request.headers.get('content-length') ?? 0)
      const limit = bodyLimitFor(apiPath)
      if (length > limit) throw isSentryPath(apiPath) ? payloadTooLarge(tooLargeMessage(limit)) : bodyTooLarge(limit)
    })
    .onParse({ as: 'global' }, guardBody)
    .onAfterHandle({ as: 'global' }, async ({ request, response }) => {
      // A public page's 404 (an HTML answer) at a renamed project's old URL: redirect to the new one.
      if (response instanceof Response && response.status === 404) {
        const moved = await movedPublicUrl(deps.db, deps.clock.now(), request)
        if (moved) return new Response(null, { status: moved.status, headers: moved.headers })
      }
      return envelope(request, response)
    })
    // The context's parts by name: Elysia reads every hook's source to learn what each request needs,
    // and a hook that takes the whole context makes every route parse cookies, the query and headers.
    .onError({ as: 'global' }, async ({ code, error, set, request, route }) => {
      let answer = errorAnswer({ code, error, set, request })
      if (set.status === 404) {
        const moved = await movedPublicUrl(deps.db, deps.clock.now(), request)
        if (moved) answer = errorAnswer({ code, error: moved, set, request })
      }
      // Sentry's clients read `{"detail": …}`, not this API's envelope (CONTRACT.md "Sentry SDKs"): on
      // their routes, matched (a DSN id that is no number) or not (yet).
      const apiPath = apiPathOf(pathOf(request.url))
      return (route ?? '').startsWith(SENTRY_ROUTE_PREFIX) || isSentryPath(apiPath) || isSentryCliPath(apiPath) ? { detail: answer.error } : answer
    })
    .onAfterResponse({ as: 'global' }, ({ request, set }) => {
      if (!logger.debugEnabled) return
      logger.debug('request', { request_id: set.headers['x-request-id'], method: request.method, path: pathOf(request.url), status: set.status })
    })
}
