import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { Query, Seam } from '../../db/client'
import { eventNames, events, perfSnapshots, players, playSessions } from '../sdk/sdk.table'
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
      .values({ projectId: ph('projectId'), day: ph('day'), gameVersion: ph('gameVersion'), platform: ph('platform'), reports: ph('first'), crashReports: ph('crashFirst'), events: 1, crashEvents: ph('crash') })
      .onConflictDoUpdate({
        target: [analyticsDailyReports.projectId, analyticsDailyReports.day, analyticsDailyReports.gameVersion, analyticsDailyReports.platform],
        set: {
          reports: sql`${analyticsDailyReports.reports} + excluded.reports`,
          crashReports: sql`${analyticsDailyReports.crashReports} + excluded.crash_reports`,
          events: sql`${analyticsDailyReports.events} + 1`,
          crashEvents: sql`${analyticsDailyReports.crashEvents} + excluded.crash_events`,
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
    // A player who files reports but never starts a session still has a player page (session_count 0).
    reportingPlayer: q
      .insert(players)
      .values({ projectId: ph('projectId'), playerId: ph('playerId'), firstSeen: ph('at'), lastSeen: ph('at'), sessionCount: 0 })
      .onConflictDoUpdate({
        target: [players.projectId, players.playerId],
        set: { firstSeen: sql`min(${players.firstSeen}, excluded.first_seen)`, lastSeen: sql`max(${players.lastSeen}, excluded.last_seen)` },
      })
      .prepare(),
    group: q
      .insert(analyticsCrashGroups)
      .values({ projectId: ph('projectId'), fingerprint: ph('fingerprint'), label: ph('label'), errorType: ph('errorType'), frame: ph('label'), sampleTitle: ph('title'), sampleReportNumber: ph('number'), count: 1, firstSeen: ph('at'), lastSeen: ph('at') })
      .onConflictDoUpdate({
        target: [analyticsCrashGroups.projectId, analyticsCrashGroups.fingerprint],
        set: {
          count: sql`${analyticsCrashGroups.count} + 1`,
          label: sql`excluded.label`,
          errorType: sql`excluded.error_type`,
          frame: sql`excluded.frame`,
          sampleTitle: sql`excluded.sample_title`,
          sampleReportNumber: sql`excluded.sample_report_number`,
          lastSeen: sql`max(${analyticsCrashGroups.lastSeen}, excluded.last_seen)`,
          firstSeen: sql`min(${analyticsCrashGroups.firstSeen}, excluded.first_seen)`,
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
        set: { count: sql`${analyticsLogLines.count} + 1`, lastSeen: sql`max(${analyticsLogLines.lastSeen}, excluded.last_seen)` },
      })
      .prepare(),
  }
}

type Statements = ReturnType<typeof prepare>
// Prepared once per connection, like the ingest path's statements.
const statements = new WeakMap<Query, Statements>()
function statementsOf(q: Query): Statements {
  let st = statements.get(q)
  if (!st) statements.set(q, (st = prepare(q)))
  return st
}

/** An occurrence as the rollup reads it, with what its report says about it. */
export interface OccurrenceRow {
  seq: number
  projectId: string
  reportSeq: number | null
  reportNumber: number
  title: string
  description: string
  category: string
  errorType: string
  fingerprint: string
  label: string
  platform: string
  gameVersion: string
  playerId: string | null
  createdAt: number
  /** 1 when it filed its report (its report's oldest occurrence). */
  first: number
}

/** An occurrence ready to count: its UTC day (as text and as days since 1970), whether it is a crash, and its normalized log lines. */
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

async function countOccurrence(st: Statements, o: CountedOccurrence) {
  await st.daily.execute({ projectId: o.projectId, day: o.day, gameVersion: o.gameVersion, platform: o.platform, first: o.first, crashFirst: o.first * o.crash, crash: o.crash })
  await st.reportDay.execute({ seq: o.reportSeq, day: o.dayNumber })
  await seeVersion(st, { projectId: o.projectId, gameVersion: o.gameVersion, at: o.at, playerId: o.playerId })
  if (o.playerId) {
    await st.playerReport.execute({ projectId: o.projectId, playerId: o.playerId, seq: o.reportSeq })
    await st.reportingPlayer.execute({ projectId: o.projectId, playerId: o.playerId, at: o.at })
  }
  if (o.crash) {
    const [group] = await st.group.execute({ projectId: o.projectId, fingerprint: o.fingerprint, label: o.label, errorType: o.errorType, title: o.title, number: o.reportNumber, at: o.at })
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
 * The analytics rollup's reads of its sources (occurrences, sessions, performance snapshots, events)
 * and its writes of the rollup tables, as async functions over the database seam. The writes use
 * statements prepared once per connection: the rollup runs them for every stored occurrence.
 */
export function createRollupRepository({ db }: { db: Seam }) {
  return {
    /**
     * Up to `limit` occurrences after `after` (by seq) with their report's number, title, fingerprint,
     * label and category, and whether each filed its report. Joins the ingest and reports tables in one
     * statement: the rollup reads them in the same step that counts them.
     */
    occurrencesAfter: (after: number, limit: number) =>
      db.read((q) =>
        q.all<OccurrenceRow>(sql`
      SELECT o.seq, o.project_id AS projectId, r.seq AS reportSeq, r.report_number AS reportNumber, r.title, o.description, r.category,
        CASE WHEN o.error_type <> '' THEN o.error_type ELSE r.error_type END AS errorType, r.fingerprint, r.grouping_label AS label,
        o.platform, o.game_version AS gameVersion, o.player_id AS playerId, o.created_at AS createdAt,
        NOT EXISTS (SELECT 1 FROM report_occurrences e WHERE e.report_id = o.report_id AND e.seq < o.seq) AS first
      FROM report_occurrences o LEFT JOIN reports r ON r.id = o.report_id
      WHERE o.seq > ${after} ORDER BY o.seq LIMIT ${limit}`),
      ),

    /** Counts occurrences into the daily, sparkline, version, player, crash-group and log-line rollups. */
    countOccurrences: (rows: CountedOccurrence[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const o of rows) await countOccurrence(st, o)
      }),

    /** Up to `limit` sessions after `after` (by rowid), with what the version rollup needs. */
    sessionsAfter: (after: number, limit: number) =>
      db.read((q) =>
        q
          .select({ rowid: sql<number>`${playSessions}.rowid`, projectId: playSessions.projectId, gameVersion: playSessions.gameVersion, playerId: playSessions.playerId, at: playSessions.startedAt })
          .from(playSessions)
          .where(sql`${playSessions}.rowid > ${after}`)
          .orderBy(sql`${playSessions}.rowid`)
          .limit(limit),
      ),

    /** Records versions and their distinct players (versions named '' are not recorded). */
    seeVersions: (sightings: VersionSighting[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const v of sightings) await seeVersion(st, v)
      }),

    /** Up to `limit` performance snapshots after `after` (by rowid), with their report's id (null for a scene load). */
    perfAfter: (after: number, limit: number) =>
      db.read((q) =>
        q
          .select({
            rowid: sql<number>`${perfSnapshots}.rowid`,
            projectId: perfSnapshots.projectId,
            reportId: perfSnapshots.reportId,
            fps: perfSnapshots.fps,
            frameTimeMs: perfSnapshots.frameTimeMs,
            memoryUsedMb: perfSnapshots.memoryUsedMb,
            loadTimeSec: perfSnapshots.loadTimeSec,
          })
          .from(perfSnapshots)
          .where(sql`${perfSnapshots}.rowid > ${after}`)
          .orderBy(sql`${perfSnapshots}.rowid`)
          .limit(limit),
      ),

    /** Adds counts to the performance histograms. */
    addPerfCounts: (buckets: PerfBucket[]) =>
      db.write(async (q) => {
        const st = statementsOf(q)
        for (const b of buckets) await st.histogram.execute(b)
      }),

    /** The id before the first event stored at or after `from` (ms), or the newest id when there is none. */
    eventIdBefore: (from: number) =>
      db.read(async (q) => {
        // Per name, a range of the (name_id, created_at) index, which carries the id.
        const [first] = await q.all<{ id: number | null }>(sql`SELECT min((SELECT min(id) FROM events WHERE name_id = n.id AND created_at >= ${from})) AS id FROM event_names n`)
        if (first?.id != null) return first.id - 1
        const [last] = await q.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)
        return last?.id ?? 0
      }),

    /** The newest event id, 0 without events. */
    newestEventId: async (): Promise<number> => (await db.read((q) => q.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)))[0]?.id ?? 0,

    /** Drops the per-day event counts and session tokens up to `through` (a UTC day), which the retention rollup now holds. */
    pruneEventDays: (through: string) =>
      db.write(async (q) => {
        await q.delete(analyticsEventDays).where(lte(analyticsEventDays.day, through))
        await q.delete(analyticsEventDaySessions).where(lte(analyticsEventDaySessions.day, through))
      }),

    /** Up to `limit` events after id `after`, by their key alone (joined to the names, the planner walked each name's whole index). */
    eventsAfter: (after: number, limit: number) =>
      db.read((q) => q.select({ id: events.id, nameId: events.nameId, createdAt: events.createdAt, token: events.sessionToken }).from(events).where(gt(events.id, after)).orderBy(events.id).limit(limit)),

    /** The event names of these ids, by id. */
    eventNamesOf: async (ids: number[]) => {
      if (!ids.length) return new Map<number, { id: number; projectId: string; name: string }>()
      const rows = await db.read((q) => q.select({ id: eventNames.id, projectId: eventNames.projectId, name: eventNames.name }).from(eventNames).where(inArray(eventNames.id, ids)))
      return new Map(rows.map((n) => [n.id, n]))
    },

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
