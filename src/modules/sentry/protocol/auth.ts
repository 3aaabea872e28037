/** Where a Sentry client put its key: a header, the query string or the envelope header's DSN. */
export type SentryAuthSource = 'x-sentry-auth' | 'authorization' | 'query' | 'envelope-dsn'

export interface SentryAuth {
  key: string
  /** `sentry_version` (7 for every current SDK), when given. */
  version: string | null
  /** `sentry_client` (`sentry.python/1.9.10`), when given. */
  client: string | null
  source: SentryAuthSource
}

export interface Dsn {
  scheme: 'http' | 'https'
  publicKey: string
  /** The legacy `key:secret` form's secret, else null. */
  secretKey: string | null
  /** Host name with the port when one is written (`sentry.example:9000`). */
  host: string
  /** Path before the project id, without slashes at its ends ('' for most DSNs). */
  path: string
  /** The last path segment, as written (Glitchbox's `dsn_id`). */
  projectId: string
}

const MAX_KEY = 200
// Keys are URL-safe tokens (Glitchbox's are `sk_live_…`, Sentry's 32 hex digits).
const KEY = /^[A-Za-z0-9._~-]+$/
const validKey = (key: string | undefined | null): key is string => !!key && key.length <= MAX_KEY && KEY.test(key)

const decode = (s: string): string | null => {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}

/** Parses a DSN (`https://KEY@host/ID`, `https://KEY:SECRET@host:9000/prefix/ID`), or null when it is not one. */
export function parseDsn(dsn: unknown): Dsn | null {
  if (typeof dsn !== 'string' || dsn.length > 1000 || !URL.canParse(dsn)) return null
  const url = new URL(dsn)
  const scheme = url.protocol.slice(0, -1)
  if (scheme !== 'http' && scheme !== 'https') return null
  const publicKey = decode(url.username)
  if (!validKey(publicKey) || !url.hostname) return null
  const segments = url.pathname.split('/').filter(Boolean)
  const projectId = segments.pop()
  if (!projectId) return null
  const secretKey = url.password ? decode(url.password) : null
  return { scheme, publicKey, secretKey, host: url.host, path: segments.join('/'), projectId: decode(projectId) ?? projectId }
}

/**
 * The pairs of a Sentry auth value (`Sentry sentry_key=abc, sentry_version=7, sentry_client=x/1.0`):
 * the `Sentry` word is optional, pairs are split at commas, names lose their `sentry_` prefix.
 */
function authPairs(value: string): Map<string, string> {
  const pairs = new Map<string, string>()
  for (const part of value.replace(/^\s*sentry\s+/i, '').split(',').slice(0, 20)) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim().toLowerCase().replace(/^sentry_/, '')
    const v = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1')
    if (name && !pairs.has(name)) pairs.set(name, v)
  }
  return pairs
}

function fromPairs(pairs: { get(name: string): string | null | undefined }, source: SentryAuthSource): SentryAuth | null {
  const key = pairs.get('key')
  if (!validKey(key)) return null
  const clip = (v: string | null | undefined) => (v ? v.slice(0, 200) : null)
  return { key, version: clip(pairs.get('version')), client: clip(pairs.get('client')), source }
}

/** The key in an `X-Sentry-Auth` or `Authorization: Sentry …` value, or null. */
export function parseAuthHeader(value: string | null | undefined, source: 'x-sentry-auth' | 'authorization' = 'x-sentry-auth'): SentryAuth | null {
  if (!value || value.length > 4096) return null
  return fromPairs(authPairs(value), source)
}

/** The key in the query string (`?sentry_key=…&sentry_version=7`, as browser SDKs send it), or null. */
export function authFromQuery(search: URLSearchParams): SentryAuth | null {
  return fromPairs({ get: (name) => search.get(`sentry_${name}`) }, 'query')
}

/** The key of a DSN (the envelope header's `dsn`), or null. */
export function authFromDsn(dsn: unknown): SentryAuth | null {
  const parsed = parseDsn(dsn)
  return parsed ? { key: parsed.publicKey, version: null, client: null, source: 'envelope-dsn' } : null
}

/** The key in an `Authorization: Sentry …` or `Authorization: DSN <dsn>` value; null for other schemes (Bearer). */
function authFromAuthorization(value: string | null): SentryAuth | null {
  if (!value) return null
  const dsn = /^\s*dsn\s+(\S+)\s*$/i.exec(value)
  if (dsn) {
    const auth = authFromDsn(dsn[1])
    return auth && { ...auth, source: 'authorization' }
  }
  return /^\s*sentry\s/i.test(value) ? parseAuthHeader(value, 'authorization') : null
}

/**
 * The client's key, looked for in this order: `X-Sentry-Auth`, `Authorization`, the `sentry_key`
 * query parameter, then the envelope header's `dsn` (pass it once the envelope is parsed); null when
 * none holds a usable key.
 */
export function sentryAuthOf(request: { url: string; headers: Headers }, envelopeDsn?: unknown): SentryAuth | null {
  return (
    parseAuthHeader(request.headers.get('x-sentry-auth')) ??
    authFromAuthorization(request.headers.get('authorization')) ??
    (URL.canParse(request.url) ? authFromQuery(new URL(request.url).searchParams) : null) ??
    authFromDsn(envelopeDsn)
  )
}
