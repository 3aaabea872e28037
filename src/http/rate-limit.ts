import type { Clock } from '../lib/clock'
import { clientGroupOf } from '../net/ip-ranges'
import { AppError } from './errors'
import { isSentryPath } from './sentry-paths'

export interface Budget {
  name: string
  limit: number
}

/** The budgets' sizes (`GLITCHBOX_RATE_LIMIT_*`): requests a minute per client IP; 0 turns one off. */
export interface RateLimits {
  rateLimitGlobal: number
  rateLimitPublic: number
  rateLimitPerf: number
  rateLimitAuth: number
}

const TELEMETRY = /^\/(?:perf\/snapshot|session-replays)$/
const AUTH = /^\/auth\/(?:login|signup|resend-verification|forgot-password|reset-password)$/
const PUBLIC = /^\/(?:bugs\/submit|bugs\/settings|bugs\/similar|bugs\/vote|bugs\/[^/]+\/attachments|sessions\/|events\/|tracker\/|roadmap\/|branding\/|files\/)/
const CHANGELOG = /^\/projects\/[^/]+\/changelog$/

/** The SDK budget (`GLITCHBOX_RATE_LIMIT_PUBLIC`, public and SDK routes), or none when turned off. */
export const sdkBudget = (limits: Pick<RateLimits, 'rateLimitPublic'>): Budget[] => (limits.rateLimitPublic > 0 ? [{ name: 'public', limit: limits.rateLimitPublic }] : [])

/**
 * The budgets (spec section 8) a request under /api counts against, as a function of the method and
 * the path with its /api or /api/v1 prefix removed. A budget of 0 is left out; no budget at all
 * means the request is not counted.
 */
export function budgetRules(limits: RateLimits): (method: string, apiPath: string) => Budget[] {
  const on = (name: string, limit: number): Budget[] => (limit > 0 ? [{ name, limit }] : [])
  const global = on('global', limits.rateLimitGlobal)
  const withGlobal = (b: Budget[]) => (b.length ? [...global, ...b] : global)
  const telemetry = withGlobal(on('telemetry', limits.rateLimitPerf))
  const auth = withGlobal(on('auth', limits.rateLimitAuth))
  const pub = withGlobal(sdkBudget(limits))
  return (method, apiPath) => {
    if (TELEMETRY.test(apiPath)) return telemetry
    if (AUTH.test(apiPath)) return auth
    // The Sentry protocol routes are SDK routes too: the SDK budget.
    if (PUBLIC.test(apiPath) || isSentryPath(apiPath)) return pub
    // The team's changelog writes share the path of the public read; only the read is public.
    if (method === 'GET' && CHANGELOG.test(apiPath)) return pub
    return global
  }
}

/** The 429 of a refused request: `Retry-After`, and for Sentry's clients `X-Sentry-Rate-Limits`, which they honour for every kind of item. */
export function rateLimited(decision: Pick<RateDecision, 'retryAfter'>, sentry: boolean): AppError {
  const sentryHeaders: Record<string, string> = sentry ? { 'x-sentry-rate-limits': `${decision.retryAfter}::organization` } : {}
  return new AppError(429, 'too many requests, slow down', { 'retry-after': String(decision.retryAfter), ...sentryHeaders })
}

export interface RateDecision {
  allowed: boolean
  /** The budgets this request went past (empty when allowed). */
  refusedBy: string[]
  limit: number
  remaining: number
  /** Unix seconds when the window resets. */
  reset: number
  retryAfter: number
}

/**
 * Fixed one-minute windows per (budget, client): an IPv4 address, or an IPv6 /64 (clientGroupOf),
 * since an IPv6 client picks any address of its /64 and would otherwise get a fresh budget each. Only the current window is kept, so memory is
 * bounded by the addresses seen in one minute; past `maxKeys` addresses, new ones share hashed
 * overflow slots rather than grow the map (a flood of spoofed addresses cannot exhaust memory).
 */
export class RateLimiter {
  private window = -1
  private counts = new Map<string, number>()

  constructor(
    private clock: Clock,
    private maxKeys = 1_000_000,
  ) {}

  /** Counts one request from `ip` (its /64 for IPv6) against each budget; the tightest decides. */
  hit(ip: string, budgets: Budget[]): RateDecision {
    const client = clientGroupOf(ip)
    const now = this.clock.now().getTime()
    const window = Math.floor(now / 60_000)
    if (window !== this.window) {
      this.window = window
      this.counts = new Map()
    }
    const reset = (window + 1) * 60
    const retryAfter = Math.max(1, Math.ceil(reset - now / 1000))
    let tightest: Omit<RateDecision, 'refusedBy'> | null = null
    const refusedBy: string[] = []
    for (const budget of budgets) {
      const key = this.slot(budget.name, client)
      const used = (this.counts.get(key) ?? 0) + 1
      this.counts.set(key, used)
      const decision = { allowed: used <= budget.limit, limit: budget.limit, remaining: Math.max(0, budget.limit - used), reset, retryAfter }
      if (!decision.allowed) refusedBy.push(budget.name)
      if (!tightest || (!decision.allowed && tightest.allowed) || (decision.allowed === tightest.allowed && decision.remaining < tightest.remaining)) {
        tightest = decision
      }
    }
    return { ...tightest!, refusedBy }
  }

  /** Number of tracked keys, for tests of the memory bound. */
  get size(): number {
    return this.counts.size
  }

  private slot(budget: string, client: string): string {
    const key = `${budget}|${client}`
    if (this.counts.size < this.maxKeys || this.counts.has(key)) return key
    return `${budget}|overflow:${Bun.hash(client) % 4096n}`
  }
}
