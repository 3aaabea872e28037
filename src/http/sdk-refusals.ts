import type { Config } from '../config/config'
import type { Clock } from '../lib/clock'
import { sentryAuthOf } from '../modules/sentry/protocol/auth'
import { isSentryPath } from './sentry-paths'

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS
const UNREAL_KEY = /^\/\d+\/unreal\/([^/]+)/

/** Counts per key in time buckets of `ms`, the last `span` of them kept. */
type Buckets = { ms: number; span: number; counts: Map<number, Map<string, number>> }

/**
 * Requests the SDK budget (`GLITCHBOX_RATE_LIMIT_PUBLIC`, per client address) refused, counted per SDK
 * key (so per project) by minute for the last hour (the setup checklist) and by hour for the last
 * day (the project overview), so a studio learns its players are being turned away. In memory and
 * per node (a restart starts over); past `maxKeys` keys in a bucket, new keys are not counted, so a
 * flood of made-up keys cannot grow it.
 */
export class SdkRefusals {
  private minutes: Buckets['counts'] = new Map()
  private hours: Buckets['counts'] = new Map()

  constructor(
    private clock: Clock,
    private maxKeys = 10_000,
  ) {}

  /** Counts one refused request that carried `key`. */
  record(key: string): void {
    this.add({ ms: MINUTE_MS, span: 60, counts: this.minutes }, key)
    this.add({ ms: HOUR_MS, span: 24, counts: this.hours }, key)
  }

  /** Refused requests that carried one of `keys` in the last hour. */
  lastHour(keys: readonly string[]): number {
    return this.sum({ ms: MINUTE_MS, span: 60, counts: this.minutes }, keys)
  }

  /** Refused requests that carried one of `keys` in the last 24 hours (by whole hours). */
  lastDay(keys: readonly string[]): number {
    return this.sum({ ms: HOUR_MS, span: 24, counts: this.hours }, keys)
  }

  private add(b: Buckets, key: string): void {
    const at = Math.floor(this.clock.now().getTime() / b.ms)
    let counts = b.counts.get(at)
    if (!counts) {
      for (const old of b.counts.keys()) if (old <= at - b.span) b.counts.delete(old)
      b.counts.set(at, (counts = new Map()))
    }
    if (counts.size >= this.maxKeys && !counts.has(key)) return
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }

  private sum(b: Buckets, keys: readonly string[]): number {
    const at = Math.floor(this.clock.now().getTime() / b.ms)
    let n = 0
    for (const [bucket, counts] of b.counts) {
      if (bucket <= at - b.span) continue
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

/**
 * The SDK budget (`GLITCHBOX_RATE_LIMIT_PUBLIC`, per player address) and how many requests carrying
 * the project's keys (the current and the previous one) it refused in the last hour and 24 hours on
 * this node: the setup checklist and the project overview show them with the setting to raise.
 */
export function sdkBudgetOf(deps: { config: Config; sdkRefusals: SdkRefusals }, project: { apiKey: string; previousApiKey: string | null }) {
  const keys = project.previousApiKey ? [project.apiKey, project.previousApiKey] : [project.apiKey]
  return {
    per_minute: deps.config.rateLimitPublic > 0 ? deps.config.rateLimitPublic : null,
    setting: 'GLITCHBOX_RATE_LIMIT_PUBLIC',
    refused_last_hour: deps.sdkRefusals.lastHour(keys),
    refused_last_24_hours: deps.sdkRefusals.lastDay(keys),
  }
}
