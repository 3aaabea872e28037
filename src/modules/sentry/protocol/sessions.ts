import { count, eventIdOf, isObject, listOf, num, obj, releaseVersion, scalarText, text, timestampOf } from './values'

/** How a session update leaves the session: still running, ended cleanly, or ended by a crash. */
export type SessionOutcome = 'running' | 'clean' | 'crash'

/** One `session` item: an update of one play session. */
export interface SentrySessionUpdate {
  /** `sid` as 32 lowercase hex digits (SDKs send it with or without dashes). */
  sessionId: string
  /** `did`: the user or device the session belongs to, null when absent. */
  distinctId: string | null
  /** True on the session's first update. */
  init: boolean
  status: string
  /** `ok` → running; `exited` and `errored` → clean (errored is not a crash); `crashed`, `abnormal`, `unhandled` → crash. */
  outcome: SessionOutcome
  started: Date | null
  timestamp: Date | null
  /** Seconds, null when absent. */
  duration: number | null
  errors: number
  /** The game version of the session's `release` (`cave-game@1.4.2` gives `1.4.2`, see values.ts). */
  release: string | null
  environment: string | null
  userAgent: string | null
}

/** One bucket of a `sessions` item: counts of sessions that started in one minute and ended each way. */
export interface SentrySessionAggregate {
  started: Date
  distinctId: string | null
  exited: number
  errored: number
  abnormal: number
  crashed: number
  unhandled: number
  /** The game version of the session's `release` (`cave-game@1.4.2` gives `1.4.2`, see values.ts). */
  release: string | null
  environment: string | null
}

/** Most sessions one bucket count may stand for, and most buckets read from one item. */
export const MAX_AGGREGATE_COUNT = 10_000
export const MAX_AGGREGATES = 100

const CRASH = new Set(['crashed', 'abnormal', 'unhandled'])
const CLEAN = new Set(['exited', 'errored'])

export function outcomeOf(status: string): SessionOutcome {
  if (CRASH.has(status)) return 'crash'
  return CLEAN.has(status) ? 'clean' : 'running'
}

function attrsOf(v: unknown) {
  const attrs = obj(v)
  return { release: releaseVersion(attrs?.release), environment: text(attrs?.environment, 100)?.trim() || null }
}

/** A `session` item's payload as a session update; null without a usable `sid`. */
export function parseSessionUpdate(payload: unknown): SentrySessionUpdate | null {
  const s = obj(payload)
  const sessionId = eventIdOf(s?.sid)
  if (!s || !sessionId) return null
  const status = text(s.status, 20)?.toLowerCase() ?? 'ok'
  const duration = num(s.duration)
  return {
    sessionId,
    distinctId: scalarText(s.did, 200) ?? null,
    init: s.init === true,
    status,
    outcome: outcomeOf(status),
    started: timestampOf(s.started),
    timestamp: timestampOf(s.timestamp),
    duration: duration !== undefined && duration >= 0 ? duration : null,
    errors: count(s.errors, 1_000_000) ?? 0,
    ...attrsOf(s.attrs),
    userAgent: text(obj(s.attrs)?.user_agent, 500) ?? null,
  }
}

/** A `sessions` item's buckets (at most `MAX_AGGREGATES`, each count at most `MAX_AGGREGATE_COUNT`); buckets without a start time or any session are left out. */
export function parseSessionAggregates(payload: unknown): SentrySessionAggregate[] {
  const item = obj(payload)
  if (!item) return []
  const attrs = attrsOf(item.attrs)
  const out: SentrySessionAggregate[] = []
  for (const bucket of listOf(item.aggregates).slice(0, MAX_AGGREGATES)) {
    if (!isObject(bucket)) continue
    const started = timestampOf(bucket.started)
    const n = (key: string) => count(bucket[key], MAX_AGGREGATE_COUNT) ?? 0
    const counts = { exited: n('exited'), errored: n('errored'), abnormal: n('abnormal'), crashed: n('crashed'), unhandled: n('unhandled') }
    if (!started || Object.values(counts).every((c) => c === 0)) continue
    out.push({ started, distinctId: scalarText(bucket.did, 200) ?? null, ...counts, ...attrs })
  }
  return out
}
