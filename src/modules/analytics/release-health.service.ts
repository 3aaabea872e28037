import type { Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import { createAnalyticsRepository } from './analytics.repository'
import { crashGroups, reportDays, versionTotals } from './crash.service'
import { newestFirst } from '../../lib/semver'
import { crashFreeRate, lastDays, round, sessionDays, sumBy } from './telemetry.service'

const ADOPTION_DAYS = 7

/** Distinct players per version (from sessions and reports). */
const versionPlayers = async (db: Seam, projectId: string) => new Map((await createAnalyticsRepository({ db }).versions(projectId)).map((r) => [r.version, r.players]))

/**
 * `/release-health`: one row per version, newest first: all-time sessions, crash-free rate, reports,
 * players, and its share of the last 7 days' sessions; sessions of one environment when given.
 */
export async function releaseHealth(db: Seam, projectId: string, now: Date, environment?: string) {
  const versions = newestFirst(await versionTotals(db, projectId, environment))
  const players = await versionPlayers(db, projectId)
  const recent = sumBy(await sessionDays(db, projectId, lastDays(now, ADOPTION_DAYS)[0]!, { environment }), (r) => r.game_version, ['started'])
  const recentTotal = [...recent.values()].reduce((s, r) => s + r.started, 0)
  return {
    environment: environment ?? null,
    adoption_days: ADOPTION_DAYS,
    sessions_last_7_days: recentTotal,
    versions: versions.map((v) => {
      const last7 = recent.get(v.version)?.started ?? 0
      return {
        version: v.version,
        first_seen: v.firstSeen ? new Date(v.firstSeen).toISOString() : null,
        sessions: v.sessions,
        ended_sessions: v.ended,
        crashed_sessions: v.crashed,
        crash_free_rate: crashFreeRate(v.sessions, v.crashed),
        reports: v.reports,
        crash_reports: v.crash_reports,
        events: v.events,
        crash_events: v.crash_events,
        players: players.get(v.version) ?? 0,
        sessions_last_7_days: last7,
        adoption_share: recentTotal ? round(last7 / recentTotal, 4) : null,
      }
    }),
  }
}

/** `/release-health/version`: one version's totals (events and players among them), its daily series over the last `days` UTC days and its top crash groups; 400 for a version never seen. */
export async function versionHealth(db: Seam, projectId: string, now: Date, version: string, days: number, environment?: string) {
  const totals = (await versionTotals(db, projectId, environment)).find((v) => v.version === version)
  if (!totals) throw badRequest(`version: unknown version "${version}"`)
  const dayList = lastDays(now, days)
  const sessions = sumBy(await sessionDays(db, projectId, dayList[0]!, { version, environment }), (r) => r.day, ['started', 'ended', 'crashed'])
  const reports = sumBy(await reportDays(db, projectId, dayList[0]!, version), (r) => r.day, ['reports', 'crash_reports', 'events', 'crash_events'])
  return {
    environment: environment ?? null,
    version,
    days,
    first_seen: totals.firstSeen ? new Date(totals.firstSeen).toISOString() : null,
    sessions: totals.sessions,
    ended_sessions: totals.ended,
    crashed_sessions: totals.crashed,
    crash_free_rate: crashFreeRate(totals.sessions, totals.crashed),
    reports: totals.reports,
    crash_reports: totals.crash_reports,
    events: totals.events,
    crash_events: totals.crash_events,
    players: (await versionPlayers(db, projectId)).get(version) ?? 0,
    daily: dayList.map((day) => {
      const s = sessions.get(day)
      const r = reports.get(day)
      return { day, sessions: s?.started ?? 0, ended: s?.ended ?? 0, crashed: s?.crashed ?? 0, crash_free_rate: crashFreeRate(s?.started ?? 0, s?.crashed ?? 0), reports: r?.reports ?? 0, crash_reports: r?.crash_reports ?? 0, events: r?.events ?? 0, crash_events: r?.crash_events ?? 0 }
    }),
    top_crash_groups: await crashGroups(db, projectId, { limit: 10, version }),
  }
}
