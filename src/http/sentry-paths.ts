/**
 * The Sentry protocol routes (modules/sentry), as paths under /api with the prefix removed:
 * `/{dsn_id}/envelope/`, `/{dsn_id}/store/`, `/{dsn_id}/minidump/` and `/{dsn_id}/unreal/{key}/`.
 * They speak Sentry's protocol, not this API's: the cross-cutting layers read this to answer them
 * as Sentry's clients expect (errors as `{"detail": …}`, `X-Sentry-Rate-Limits`, their CORS headers,
 * their body limit, their own body decoding).
 */
export const SENTRY_PATH = /^\/\d{1,15}\/(?:envelope|store|minidump|unreal\/[^/]+)\/?$/

export const isSentryPath = (apiPath: string | null): boolean => apiPath !== null && SENTRY_PATH.test(apiPath)

/** How the Sentry routes' paths begin as Elysia names a matched route: also when the DSN id is no number. */
export const SENTRY_ROUTE_PREFIX = '/api/:dsnId/'

/**
 * The routes sentry-cli calls (modules/debug-files/sentry-cli.routes.ts), as paths under /api with the
 * prefix removed: `/0/organizations/…` and `/0/projects/…`. Sentry's tools read `{"detail": …}` errors too.
 */
export const SENTRY_CLI_PATH = /^\/0\/(?:organizations|projects)\//

export const isSentryCliPath = (apiPath: string | null): boolean => apiPath !== null && SENTRY_CLI_PATH.test(apiPath)
