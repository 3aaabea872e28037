import type { Seam } from '../../db/client'
import { DAY } from '../../lib/clock'
import { createAnalyticsRepository } from './analytics.repository'
import { newestFirst } from '../../lib/semver'
import { twoProportionZTest } from './stats'
import { verdictSummary } from './verdict-words'
import { crashFreeRate, dayOf, lastDays, round, sessionDays, sumBy } from './telemetry.service'
import type { SessionSlice } from './telemetry.repository'

/** Significance threshold of the bad-deploy verdict. */
export const BAD_DEPLOY_ALPHA = 0.05
/** Sessions each compared version needs (spec: at least 10 sessions), ended or not. */
export const BAD_DEPLOY_MIN_SESSIONS = 10

const repo = (db: Seam) => createAnalyticsRepository({ db })

/** Reports per UTC day, version and platform from `from` on (analytics_daily_reports). */
export const reportDays = (db: Seam, projectId: string, from: string, version?: string) => repo(db).reportDays(projectId, from, version)

/**
 * Sessions, new reports and events (occurrences: every submission) of a slice of days, versions or
 * platforms; `crash_events` are crash and error events, `crashes` the crashes among them (reports/report-crash.ts).
 */
type Row = { sessions: number; ended: number; crashed: number; reports: number; crash_reports: number; events: number; crash_events: number; crashes: number }
const EMPTY: Row = { sessions: 0, ended: 0, crashed: 0, reports: 0, crash_reports: 0, events: 0, crash_events: 0, crashes: 0 }
const REPORT_COUNTS = ['reports', 'crash_reports', 'events', 'crash_events', 'crashes'] as const

async function rowsBy(db: Seam, projectId: string, from: string, key: (r: { day: string; game_version: string; platform: string }) => string, slice: SessionSlice = {}) {
  const sessions = sumBy(await sessionDays(db, projectId, from, slice), key, ['started', 'ended', 'crashed'])
  const reports = sumBy(await reportDays(db, projectId, from), key, [...REPORT_COUNTS])
  const out = new Map<string, Row>()
  for (const k of new Set([...sessions.keys(), ...reports.keys()])) {
    const s = sessions.get(k)
    const r = reports.get(k)
    out.set(k, { sessions: s?.started ?? 0, ended: s?.ended ?? 0, crashed: s?.crashed ?? 0, reports: r?.reports ?? 0, crash_reports: r?.crash_reports ?? 0, events: r?.events ?? 0, crash_events: r?.crash_events ?? 0, crashes: r?.crashes ?? 0 })
  }
  return out
}

const withRate = (r: Row) => ({ ...r, errors: Math.max(0, r.crash_events - r.crashes), crash_free_rate: crashFreeRate(r.sessions, r.crashed) })

/** `/crash-analytics`: crash reports and crash-free session rate per version, platform and day over the last `days` UTC days. */
export async function crashAnalytics(db: Seam, projectId: string, now: Date, days: number) {
  const dayList = lastDays(now, days)
  const from = dayList[0]!
  const byVersion = await rowsBy(db, projectId, from, (r) => r.game_version)
  const byPlatform = await rowsBy(db, projectId, from, (r) => r.platform)
  const byDay = await rowsBy(db, projectId, from, (r) => r.day)
  const total = [...byDay.values()].reduce<Row>((t, r) => Object.fromEntries(Object.keys(EMPTY).map((k) => [k, t[k as keyof Row] + r[k as keyof Row]])) as Row, EMPTY)
  return {
    days,
    from,
    to: dayList.at(-1)!,
    totals: withRate(total),
    by_version: [...byVersion].map(([game_version, r]) => ({ game_version, ...withRate(r) })).sort((a, b) => b.crash_events - a.crash_events || b.sessions - a.sessions),
    by_platform: [...byPlatform].map(([platform, r]) => ({ platform, ...withRate(r) })).sort((a, b) => b.crash_events - a.crash_events || b.sessions - a.sessions),
    daily: dayList.map((day) => ({ day, ...withRate(byDay.get(day) ?? EMPTY) })),
  }
}

/** Every version's all-time sessions (of one environment when given) and reports with when it was first seen; versions named `''` are left out. */
export async function versionTotals(db: Seam, projectId: string, environment?: string) {
  const rows = await rowsBy(db, projectId, '1970-01-01', (r) => r.game_version, { environment })
  const seen = new Map((await repo(db).versions(projectId)).map((r) => [r.version, r.firstSeen.getTime()]))
  return [...rows].filter(([v]) => v !== '').map(([version, r]) => ({ version, firstSeen: seen.get(version) ?? 0, ...r }))
}

/**
 * `/bad-deploy`: the two newest versions with enough sessions, compared by crash-free rate
 * (two-proportion z-test), with the verdict in words; the sessions of one environment when given.
 */
export async function badDeploy(db: Seam, projectId: string, environment?: string) {
  const eligible = newestFirst((await versionTotals(db, projectId, environment)).filter((v) => v.sessions >= BAD_DEPLOY_MIN_SESSIONS))
  const threshold = { alpha: BAD_DEPLOY_ALPHA, min_sessions: BAD_DEPLOY_MIN_SESSIONS, rule: `worse or better when the two-sided p-value < ${BAD_DEPLOY_ALPHA}` }
  const describe = (v: (typeof eligible)[number]) => ({
    version: v.version,
    sessions: v.sessions,
    crashed: v.crashed,
    crash_free_rate: crashFreeRate(v.sessions, v.crashed),
    reports: v.reports,
    reports_per_100_sessions: round((v.reports / v.sessions) * 100, 2),
  })
  const words = { alpha: BAD_DEPLOY_ALPHA, minSessions: BAD_DEPLOY_MIN_SESSIONS }
  if (eligible.length < 2) {
    const only = eligible[0] ? describe(eligible[0]) : null
    return { environment: environment ?? null, verdict: 'not_enough_data' as const, summary: verdictSummary({ ...words, verdict: 'not_enough_data', current: only, previous: null, p: null }), threshold, current: only, previous: null, crash_free_rate_change: null, reports_per_100_change: null, z: null, p_value: null }
  }
  const [current, previous] = [eligible[0]!, eligible[1]!]
  const test = twoProportionZTest(previous.sessions - previous.crashed, previous.sessions, current.sessions - current.crashed, current.sessions)
  const a = describe(current)
  const b = describe(previous)
  const verdict = test.p < BAD_DEPLOY_ALPHA ? (test.z < 0 ? ('worse' as const) : ('better' as const)) : ('no_difference' as const)
  return {
    environment: environment ?? null,
    verdict,
    summary: verdictSummary({ ...words, verdict, current: a, previous: b, p: test.p }),
    threshold,
    current: a,
    previous: b,
    crash_free_rate_change: round(a.crash_free_rate! - b.crash_free_rate!, 4),
    reports_per_100_change: round(a.reports_per_100_sessions - b.reports_per_100_sessions, 2),
    z: round(test.z, 4),
    p_value: round(test.p, 6),
  }
}

/**
 * `/crash-groups`: crash and error occurrences grouped by fingerprint, most events first, with their
 * events and distinct players per version; `version` narrows to the groups seen in it, by their events there.
 */
export async function crashGroups(db: Seam, projectId: string, o: { limit: number; version?: string }) {
  const groups = await repo(db).crashGroups(projectId, o)
  const versions = await repo(db).crashGroupVersions(groups.map((r) => r.g.id))
  return groups.map(({ g, inVersion }) => ({
    id: String(g.id),
    fingerprint: g.fingerprint,
    grouped_by: g.label,
    error_type: g.errorType,
    top_frame: g.frame,
    sample_title: g.sampleTitle,
    sample_report_number: g.sampleReportNumber,
    count: g.count,
    events: g.count,
    crashes: g.crashes,
    errors: g.count - g.crashes,
    ...(inVersion !== null && { count_in_version: inVersion.events, events_in_version: inVersion.events, players_in_version: inVersion.players }),
    affected_players: g.players,
    players: g.players,
    first_seen: g.firstSeen.toISOString(),
    last_seen: g.lastSeen.toISOString(),
    versions: versions
      .filter((v) => v.groupId === g.id)
      .sort((a, b) => b.count - a.count || (a.gameVersion < b.gameVersion ? -1 : 1))
      .map((v) => ({ game_version: v.gameVersion, count: v.count, events: v.count, players: v.players })),
  }))
}

/** Days between now and `days` ago as a UTC day string (inclusive window start). */
export const windowStart = (now: Date, days: number): string => dayOf(now.getTime() - (days - 1) * DAY)
