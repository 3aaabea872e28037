import { and, eq, lte, sql } from 'drizzle-orm'
import { preparedPerConnection, type Query, type Seam } from '../../db/client'
import { larger, smaller } from '../../db/portable-sql'
import { createSdkRepository, type SdkRepository } from '../sdk/sdk.repository'
import type { OccurrenceRow } from './analytics.sources.repository'
import {
  analyticsCrashGroupPlayers,
  analyticsCrashGroups,
  analyticsCrashGroupVersions,
  analyticsDailyReports,
  analyticsEventDays,
  analyticsEventDaySessions,
  analyticsLogLines,
  analyticsPerfHistogram,
  analyticsPlayerReports,
  analyticsVersionPlayers,
  analyticsVersions,
} from './analytics.table'
import { analyticsCrashGroupVersionPlayers } from './crash-group-players'
import { reportDaily } from './report-daily'

const ph = sql.placeholder

/** The rollup's writes as prepared statements (a million reports would otherwise rebuild each query a million times). */
function prepare(q: Query) {
  return {
    version: q.insert(analyticsVersions).values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), firstSeen: ph('at') }).onConflictDoNothing().prepare(),
    versionPlayer: q
      .insert(analyticsVersionPlayers)
      .values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), playerId: ph('playerId') })
      .onConflictDoNothing()
      .returning({ v: analyticsVersionPlayers.gameVersion })
      .prepare(),
    versionPlayers: q
      .update(analyticsVersions)
      .set({ players: sql`${analyticsVersions.players} + 1` })
      .where(and(eq(analyticsVersions.projectId, ph('projectId')), eq(analyticsVersions.gameVersion, ph('gameVersion'))))
      .prepare(),
    daily: q
      .insert(analyticsDailyReports)
      .values({ projectId: ph('projectId'), day: ph('day'), gameVersion: ph('gameVersion'), platform: ph('platform'), reports: ph('first'), crashReports: ph('crashFirst'), events: 1, crashEvents: ph('crash'), crashes: ph('crashed') })
      .onConflictDoUpdate({
        target: [analyticsDailyReports.projectId, analyticsDailyReports.day, analyticsDailyReports.gameVersion, analyticsDailyReports.platform],
        set: {
          reports: sql`${analyticsDailyReports.reports} + excluded.reports`,
          crashReports: sql`${analyticsDailyReports.crashReports} + excluded.crash_reports`,
          events: sql`${analyticsDailyReports.events} + 1`,
          crashEvents: sql`${analyticsDailyReports.crashEvents} + excluded.crash_events`,
          crashes: sql`${analyticsDailyReports.crashes} + excluded.crashes`,
        },
      })
      .prepare(),
    // The list's sparklines: occurrences per report and UTC day (report-daily.ts).
    reportDay: q
      .insert(reportDaily)
      .values({ reportSeq: ph('seq'), day: ph('day'), n: 1 })
      .onConflictDoUpdate({ target: [reportDaily.reportSeq, reportDaily.day], set: { n: sql`${reportDaily.n} + 1` } })
      .prepare(),
    playerReport: q.insert(analyticsPlayerReports).values({ projectId: ph('projectId'), playerId: ph('playerId'), reportSeq: ph('seq') }).onConflictDoNothing().prepare(),
    group: q
      .insert(analyticsCrashGroups)
      .values({ projectId: ph('projectId'), fingerprint: ph('fingerprint'), label: ph('label'), errorType: ph('errorType'), frame: ph('label'), sampleTitle: ph('title'), sampleReportNumber: ph('number'), count: 1, crashes: ph('crashed'), firstSeen: ph('at'), lastSeen: ph('at') })
      .onConflictDoUpdate({
        target: [analyticsCrashGroups.projectId, analyticsCrashGroups.fingerprint],
        set: {
          count: sql`${analyticsCrashGroups.count} + 1`,
          crashes: sql`${analyticsCrashGroups.crashes} + excluded.crashes`,
          label: sql`excluded.label`,
          errorType: sql`excluded.error_type`,
          frame: sql`excluded.frame`,
          sampleTitle: sql`excluded.sample_title`,
          sampleReportNumber: sql`excluded.sample_report_number`,
          lastSeen: larger(analyticsCrashGroups.lastSeen, sql`excluded.last_seen`),
          firstSeen: smaller(analyticsCrashGroups.firstSeen, sql`excluded.first_seen`),
        },
      })
      .returning({ id: analyticsCrashGroups.id })
      .prepare(),
    groupVersion: q
      .insert(analyticsCrashGroupVersions)
      .values({ groupId: ph('groupId'), gameVersion: ph('gameVersion'), count: 1 })
      .onConflictDoUpdate({ target: [analyticsCrashGroupVersions.groupId, analyticsCrashGroupVersions.gameVersion], set: { count: sql`${analyticsCrashGroupVersions.count} + 1` } })
      .prepare(),
    groupVersionPlayer: q
      .insert(analyticsCrashGroupVersionPlayers)
      .values({ groupId: ph('groupId'), gameVersion: ph('gameVersion'), playerId: ph('playerId') })
      .onConflictDoNothing()
      .returning({ g: analyticsCrashGroupVersionPlayers.groupId })
      .prepare(),
    groupVersionPlayers: q
      .update(analyticsCrashGroupVersions)
      .set({ players: sql`${analyticsCrashGroupVersions.players} + 1` })
      .where(and(eq(analyticsCrashGroupVersions.groupId, ph('groupId')), eq(analyticsCrashGroupVersions.gameVersion, ph('gameVersion'))))
      .prepare(),
    groupPlayer: q.insert(analyticsCrashGroupPlayers).values({ groupId: ph('groupId'), playerId: ph('playerId') }).onConflictDoNothing().returning({ g: analyticsCrashGroupPlayers.groupId }).prepare(),
    groupPlayers: q.update(analyticsCrashGroups).set({ players: sql`${analyticsCrashGroups.players} + 1` }).where(eq(analyticsCrashGroups.id, ph('groupId'))).prepare(),
    histogram: q
      .insert(analyticsPerfHistogram)
      .values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), platform: ph('platform'), metric: ph('metric'), value: ph('value'), count: ph('count') })
      .onConflictDoUpdate({
        target: [analyticsPerfHistogram.projectId, analyticsPerfHistogram.gameVersion, analyticsPerfHistogram.platform, analyticsPerfHistogram.metric, analyticsPerfHistogram.value],
        set: { count: sql`${analyticsPerfHistogram.count} + excluded.count` },
      })
      .prepare(),
    eventSession: q
      .insert(analyticsEventDaySessions)
      .values({ nameId: ph('nameId'), day: ph('day'), sessionToken: ph('token') })
      .onConflictDoNothing()
      .returning({ n: analyticsEventDaySessions.nameId })
      .prepare(),
    eventDay: q
      .insert(analyticsEventDays)
      .values({ projectId: ph('projectId'), day: ph('day'), eventName: ph('name'), count: ph('count'), sessions: ph('sessions') })
      .onConflictDoUpdate({
        target: [analyticsEventDays.projectId, analyticsEventDays.day, analyticsEventDays.eventName],
        set: { count: sql`${analyticsEventDays.count} + excluded.count`, sessions: sql`${analyticsEventDays.sessions} + excluded.sessions` },
      })
      .prepare(),
    logLine: q
      .insert(analyticsLogLines)
      .values({ projectId: ph('projectId'), day: ph('day'), line: ph('line'), count: 1, lastSeen: ph('at') })
      .onConflictDoUpdate({
        target: [analyticsLogLines.projectId, analyticsLogLines.day, analyticsLogLines.line],
        set: { count: sql`${analyticsLogLines.count} + 1`, lastSeen: larger(analyticsLogLines.lastSeen, sql`excluded.last_seen`) },
      })
      .prepare(),
  }
}

type Statements = ReturnType<typeof prepare>
// Prepared once per connection, like the ingest path's statements.
const statementsOf = preparedPerConnection(prepare)

/** An occurrence ready to count: its UTC day (as text and as days since 1970), whether it is a crash or an error (`crash`), and its normalized log lines. */
export interface CountedOccurrence extends Omit<OccurrenceRow, 'createdAt' | 'reportSeq'> {
  reportSeq: number
  at: Date
  day: string
  dayNumber: number
  crash: 0 | 1
  logLines: string[]
}

/** A first sighting of a version (by a player, when known). */
export interface VersionSighting {
  projectId: string
  gameVersion: string
  at: Date
  playerId: string | null
}

export type PerfBucket = {
  projectId: string
  gameVersion: string
  platform: string
  metric: string
  value: number
  count: number
}

export type EventDayBucket = {
  projectId: string
  day: string
  name: string
  count: number
  sessions: number
}

async function seeVersion(st: Statements, v: VersionSighting) {
  if (v.gameVersion === '') return
  await st.version.execute({ projectId: v.projectId, gameVersion: v.gameVersion, at: v.at })
  if (v.playerId && (await st.versionPlayer.execute({ projectId: v.projectId, gameVersion: v.gameVersion, playerId: v.playerId })).length) {
    await st.versionPlayers.execute({ projectId: v.projectId, gameVersion: v.gameVersion })
  }
}

async function countOccurrence(st: Statements, sdk: SdkRepository, o: CountedOccurrence) {
  await st.daily.execute({ projectId: o.projectId, day: o.day, gameVersion: o.gameVersion, platform: o.platform, first: o.first, crashFirst: o.first * o.crash, crash: o.crash, crashed: o.crashed })
  await st.reportDay.execute({ seq: o.reportSeq, day: o.dayNumber })
  await seeVersion(st, { projectId: o.projectId, gameVersion: o.gameVersion, at: o.at, playerId: o.playerId })
  if (o.playerId) {
    await st.playerReport.execute({ projectId: o.projectId, playerId: o.playerId, seq: o.reportSeq })
    await sdk.seeReportingPlayer({ projectId: o.projectId, playerId: o.playerId, at: o.at })
  }
  if (o.crash) {
    const [group] = await st.group.execute({ projectId: o.projectId, fingerprint: o.fingerprint, label: o.label, errorType: o.errorType, title: o.title, number: o.reportNumber, at: o.at, crashed: o.crashed })
    const groupId = group!.id
    await st.groupVersion.execute({ groupId, gameVersion: o.gameVersion })
    if (o.playerId) {
      if ((await st.groupPlayer.execute({ groupId, playerId: o.playerId })).length) await st.groupPlayers.execute({ groupId })
      if ((await st.groupVersionPlayer.execute({ groupId, gameVersion: o.gameVersion, playerId: o.playerId })).length) await st.groupVersionPlayers.execute({ groupId, gameVersion: o.gameVersion })
    }
  }
  for (const line of o.logLines) await st.logLine.execute({ projectId: o.projectId, day: o.day, line, at: o.at })
}

/**
 * The analytics rollup's writes of the rollup tables, as async functions over the database seam (what
 * it counts is read in analytics.sources.repository.ts). The writes use statements prepared once per
 * connection: the rollup runs them for every stored occurrence. A reporting player is recorded by the
 * SDK's repository, in the same write.
 */
export function createRollupRepository({ db }: { db: Seam }) {
  return {
    /** Counts occurrences into the daily, sparkline, version, player, crash-group and log-line rollups. */
    countOccurrences: (rows: CountedOccurrence[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        const sdk = createSdkRepository({ db })
        for (const o of rows) await countOccurrence(st, sdk, o)
      }),

    /** Records versions and their distinct players (versions named '' are not recorded). */
    seeVersions: (sightings: VersionSighting[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const v of sightings) await seeVersion(st, v)
      }),

    /** Adds counts to the performance histograms. */
    addPerfCounts: (buckets: PerfBucket[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const b of buckets) await st.histogram.execute(b)
      }),

    /** Drops the per-day event counts and session tokens up to `through` (a UTC day), which the retention rollup now holds. */
    pruneEventDays: (through: string) =>
      db.write(async (q) => {
        await q.delete(analyticsEventDays).where(lte(analyticsEventDays.day, through))
        await q.delete(analyticsEventDaySessions).where(lte(analyticsEventDaySessions.day, through))
      }),

    /** Records each (name, day, session token); true for those not recorded before (a new session of that name and day). */
    newEventSessions: (keys: { nameId: number; day: string; token: string }[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        const out: boolean[] = []
        for (const k of keys) out.push((await st.eventSession.execute(k)).length > 0)
        return out
      }),

    /** Adds counts and sessions to the per-day event counts. */
    addEventDays: (buckets: EventDayBucket[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const b of buckets) await st.eventDay.execute(b)
      }),
  }
}
