import { Elysia } from 'elysia'
import { apiPathOf, pathOf } from './pipeline'
import { SENTRY_PATH } from './sentry-paths'

/**
 * CORS (CONTRACT.md, "Web"): a game page or web build on any origin may call the SDK routes and the
 * public API routes, so they answer preflights and requests with `Access-Control-Allow-Origin: *`.
 * Never with credentials: these routes authenticate with the project key (or nothing), and a
 * wildcard origin cannot carry cookies anyway. Team routes send no CORS headers, so a browser keeps
 * other sites from reading them.
 */

const ALLOW_HEADERS = 'Content-Type, X-API-Key'
// Scripts on the game's page may read these on answers: retry timing and the id to quote in a report.
const EXPOSE_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Request-Id'
const MAX_AGE_S = '86400'

/** Paths (under /api or /api/v1) open to any origin, with the methods they take (and the headers a request may carry, when not the default). */
const OPEN: { path: RegExp; methods: string; headers?: string }[] = [
  // Sentry SDKs in browser games (CONTRACT.md "Sentry SDKs").
  { path: SENTRY_PATH, methods: 'POST', headers: 'Content-Type, X-Sentry-Auth, Authorization, Content-Encoding' },
  // SDK routes (spec 4.8).
  { path: /^\/bugs\/(?:submit|[^/]+\/attachments)$/, methods: 'POST' },
  { path: /^\/bugs\/(?:settings|similar)$/, methods: 'GET' },
  { path: /^\/bugs\/vote$/, methods: 'POST' },
  { path: /^\/sessions\/(?:start|end)$/, methods: 'POST' },
  { path: /^\/events\/track(?:\/batch)?$/, methods: 'POST' },
  { path: /^\/(?:perf\/snapshot|session-replays)$/, methods: 'POST' },
  // Public routes (spec 4.9); the changelog path takes team writes too, so only its read is open.
  { path: /^\/(?:tracker|roadmap)\/[^/]+\/bugs\/[^/]+\/vote$/, methods: 'POST' },
  { path: /^\/(?:tracker|roadmap|branding)\/[^/]+(?:\/bugs\/[^/]+|\/similar)?$/, methods: 'GET' },
  { path: /^\/projects\/[^/]+\/changelog$/, methods: 'GET' },
  { path: /^\/files\/.+$/, methods: 'GET' },
  { path: /^\/maintenance\/active$/, methods: 'GET' },
]

/** The methods a path is open to from any origin and the request headers it allows, or null for a team route (no CORS). */
export function openMethodsOf(pathname: string): { methods: string; headers: string } | null {
  const apiPath = apiPathOf(pathname)
  if (apiPath === null) return null
  const open = OPEN.find((o) => o.path.test(apiPath))
  return open ? { methods: open.methods, headers: open.headers ?? ALLOW_HEADERS } : null
}

/** Registered before the pipeline, so rate-limit and error answers carry the header too. */
export function cors() {
  return new Elysia().onRequest(({ request, set }) => {
    const open = openMethodsOf(pathOf(request.url))
    if (!open) return
    const { methods } = open
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': `${methods}, OPTIONS`,
          'access-control-allow-headers': open.headers,
          'access-control-max-age': MAX_AGE_S,
        },
      })
    }
    const method = request.method === 'HEAD' ? 'GET' : request.method
    if (!methods.split(', ').includes(method)) return
    set.headers['access-control-allow-origin'] = '*'
    set.headers['access-control-expose-headers'] = EXPOSE_HEADERS
  })
}
