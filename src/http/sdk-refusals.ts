import type { Clock } from '../lib/clock'
import { sentryAuthOf } from '../modules/sentry/protocol/auth'
import { isSentryPath } from './sentry-paths'

const MINUTE_MS = 60_000
/** The window the setup checklist reports on. */
const WINDOW_MINUTES = 60
const UNREAL_KEY = /^\/\d+\/unreal\/([^/]+)/

/**
 * Requests the SDK budget (`GLITCHBOX_RATE_LIMIT_PUBLIC`, per client address) refused, counted per SDK
 * key and minute for the last hour, so the setup checklist can tell a studio its players are being
 * turned away. In memory (a restart starts over); past `maxKeys` keys in a minute, new keys are not
 * counted, so a flood of made-up keys cannot grow it.
 */
export class SdkRefusals {
  private minutes = new Map<number, Map<string, number>>()

  constructor(
    private clock: Clock,
    private maxKeys = 10_000,
  ) {}

  /** Counts one refused request that carried `key`. */
  record(key: string): void {
    const minute = Math.floor(this.clock.now().getTime() / MINUTE_MS)
    let counts = this.minutes.get(minute)
    if (!counts) {
      for (const m of this.minutes.keys()) if (m <= minute - WINDOW_MINUTES) this.minutes.delete(m)
      this.minutes.set(minute, (counts = new Map()))
    }
    if (counts.size >= this.maxKeys && !counts.has(key)) return
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }

  /** Refused requests that carried one of `keys` in the last hour. */
  lastHour(keys: readonly string[]): number {
    const minute = Math.floor(this.clock.now().getTime() / MINUTE_MS)
    let n = 0
    for (const [m, counts] of this.minutes) {
      if (m <= minute - WINDOW_MINUTES) continue
      for (const k of keys) n += counts.get(k) ?? 0
    }
    return n
  }
}

/**
 * The SDK key a request names without reading its body: `X-API-Key`, or on Sentry's routes the key
 * in `X-Sentry-Auth`, `Authorization`, `?sentry_key=` or Unreal's path. Sessions carry theirs in the
 * body only, so their refusals are not counted. Null when none looks like a key.
 */
export function sdkKeyOf(request: Request, apiPath: string): string | null {
  let key: string | null | undefined = request.headers.get('x-api-key')
  if (!key && isSentryPath(apiPath)) key = UNREAL_KEY.exec(apiPath)?.[1] ?? sentryAuthOf(request)?.key
  return key && key.startsWith('sk_live_') && key.length <= 100 ? key : null
}
