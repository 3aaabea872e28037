import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { DAY } from '../../lib/clock'
import { reports } from '../reports/reports.table'
import { eventNames, events, perfSnapshots, players, playSessions } from '../sdk/sdk.table'
import { rollupCursors } from '../workflow/workflow.table'
import { isCrashReport, normalizeLogLine, sectionLines } from './crash.normalize'
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
import { PERF_METRICS, SCENE_LOAD } from './perf.metrics'
import { OCCURRENCES_CURSOR, reportDaily } from './report-daily'

/**
 * Rows per step: one step holds the write lock for 5-20 ms (an occurrence costs ~20-50 µs of
 * upserts). Steps of 500 held it 16-38 ms while catching up after a burst, and a request-thread
 * commit waiting behind one in SQLite's busy handler (whose sleeps grow) stalled 190 ms.
 */
export const ROLLUP_STEP = 250
const dayOf = (d: Date) => d.toISOString().slice(0, 10)
const startOfDay = (day: string) => Date.parse(`${day}T00:00:00.000Z`)

function cursor(tx: Tx, name: string): number {
  return tx.select({ position: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, name)).get()?.position ?? 0
}
function setCursor(tx: Tx, name: string, position: number) {
  tx.insert(rollupCursors).values({ name, position }).onConflictDoUpdate({ target: rollupCursors.name, set: { position } }).run()
}

const ph = sql.placeholder

/** The rollup's writes as prepared statements (a million reports would otherwise rebuild each query a million times). */
function prepare(db: Db) {
  return {
    version: db.insert(analyticsVersions).values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), firstSeen: ph('at') }).onConflictDoNothing().prepare(),
    versionPlayer: db
      .insert(analyticsVersionPlayers)
      .values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), playerId: ph('playerId') })
      .onConflictDoNothing()
      .returning({ v: analyticsVersionPlayers.gameVersion })
      .prepare(),
    versionPlayers: db
      .update(analyticsVersions)
      .set({ players: sql`${analyticsVersions.players} + 1` })
      .where(and(eq(analyticsVersions.projectId, ph('projectId')), eq(analyticsVersions.gameVersion, ph('gameVersion'))))
      .prepare(),
    daily: db
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
    reportDay: db
      .insert(reportDaily)
      .values({ reportSeq: ph('seq'), day: ph('day'), n: 1 })
      .onConflictDoUpdate({ target: [reportDaily.reportSeq, reportDaily.day], set: { n: sql`${reportDaily.n} + 1` } })
      .prepare(),
    playerReport: db.insert(analyticsPlayerReports).values({ projectId: ph('projectId'), playerId: ph('playerId'), reportSeq: ph('seq') }).onConflictDoNothing().prepare(),
    // A player who files reports but never starts a session still has a player page (session_count 0).
    reportingPlayer: db
      .insert(players)
      .values({ projectId: ph('projectId'), playerId: ph('playerId'), firstSeen: ph('at'), lastSeen: ph('at'), sessionCount: 0 })
      .onConflictDoUpdate({
        target: [players.projectId, players.playerId],
        set: { firstSeen: sql`min(${players.firstSeen}, excluded.first_seen)`, lastSeen: sql`max(${players.lastSeen}, excluded.last_seen)` },
      })
      .prepare(),
    group: db
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
    groupVersion: db
      .insert(analyticsCrashGroupVersions)
      .values({ groupId: ph('groupId'), gameVersion: ph('gameVersion'), count: 1 })
      .onConflictDoUpdate({ target: [analyticsCrashGroupVersions.groupId, analyticsCrashGroupVersions.gameVersion], set: { count: sql`${analyticsCrashGroupVersions.count} + 1` } })
      .prepare(),
    groupVersionPlayer: db
      .insert(analyticsCrashGroupVersionPlayers)
      .values({ groupId: ph('groupId'), gameVersion: ph('gameVersion'), playerId: ph('playerId') })
      .onConflictDoNothing()
      .returning({ g: analyticsCrashGroupVersionPlayers.groupId })
      .prepare(),
    groupVersionPlayers: db
      .update(analyticsCrashGroupVersions)
      .set({ players: sql`${analyticsCrashGroupVersions.players} + 1` })
      .where(and(eq(analyticsCrashGroupVersions.groupId, ph('groupId')), eq(analyticsCrashGroupVersions.gameVersion, ph('gameVersion'))))
      .prepare(),
    groupPlayer: db.insert(analyticsCrashGroupPlayers).values({ groupId: ph('groupId'), playerId: ph('playerId') }).onConflictDoNothing().returning({ g: analyticsCrashGroupPlayers.groupId }).prepare(),
    groupPlayers: db.update(analyticsCrashGroups).set({ players: sql`${analyticsCrashGroups.players} + 1` }).where(eq(analyticsCrashGroups.id, ph('groupId'))).prepare(),
    histogram: db
      .insert(analyticsPerfHistogram)
      .values({ projectId: ph('projectId'), gameVersion: ph('gameVersion'), platform: ph('platform'), metric: ph('metric'), value: ph('value'), count: ph('count') })
      .onConflictDoUpdate({
        target: [analyticsPerfHistogram.projectId, analyticsPerfHistogram.gameVersion, analyticsPerfHistogram.platform, analyticsPerfHistogram.metric, analyticsPerfHistogram.value],
        set: { count: sql`${analyticsPerfHistogram.count} + excluded.count` },
      })
      .prepare(),
    eventSession: db
      .insert(analyticsEventDaySessions)
      .values({ nameId: ph('nameId'), day: ph('day'), sessionToken: ph('token') })
      .onConflictDoNothing()
      .returning({ n: analyticsEventDaySessions.nameId })
      .prepare(),
    eventDay: db
      .insert(analyticsEventDays)
      .values({ projectId: ph('projectId'), day: ph('day'), eventName: ph('name'), count: ph('count'), sessions: ph('sessions') })
      .onConflictDoUpdate({
        target: [analyticsEventDays.projectId, analyticsEventDays.day, analyticsEventDays.eventName],
        set: { count: sql`${analyticsEventDays.count} + excluded.count`, sessions: sql`${analyticsEventDays.sessions} + excluded.sessions` },
      })
      .prepare(),
    logLine: db
      .insert(analyticsLogLines)
      .values({ projectId: ph('projectId'), day: ph('day'), line: ph('line'), count: 1, lastSeen: ph('at') })
      .onConflictDoUpdate({
        target: [analyticsLogLines.projectId, analyticsLogLines.day, analyticsLogLines.line],
        set: { count: sql`${analyticsLogLines.count} + 1`, lastSeen: sql`max(${analyticsLogLines.lastSeen}, excluded.last_seen)` },
      })
      .prepare(),
  }
}

const statements = new WeakMap<Db, ReturnType<typeof prepare>>()
function statementsFor(db: Db) {
  let st = statements.get(db)
  if (!st) statements.set(db, (st = prepare(db)))
  return st
}
type Statements = ReturnType<typeof prepare>

function seeVersion(st: Statements, projectId: string, gameVersion: string, at: Date, playerId: string | null) {
  if (gameVersion === '') return
  st.version.run({ projectId, gameVersion, at })
  if (playerId && st.versionPlayer.all({ projectId, gameVersion, playerId }).length) st.versionPlayers.run({ projectId, gameVersion })
}

/** An occurrence as the rollup reads it, with what its report says about it. */
interface OccurrenceRow {
  seq: number
  projectId: string
  reportSeq: number
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
  createdAt: Date
  /** 1 when it filed its report (its report's oldest occurrence). */
  first: number
}

function rollUpOccurrence(st: Statements, o: OccurrenceRow) {
  const day = dayOf(o.createdAt)
  const at = o.createdAt
  const crash = isCrashReport(o) ? 1 : 0
  st.daily.run({ projectId: o.projectId, day, gameVersion: o.gameVersion, platform: o.platform, first: o.first, crashFirst: o.first * crash, crash })
  st.reportDay.run({ seq: o.reportSeq, day: Math.floor(at.getTime() / DAY) })
  seeVersion(st, o.projectId, o.gameVersion, o.createdAt, o.playerId)
  if (o.playerId) {
    st.playerReport.run({ projectId: o.projectId, playerId: o.playerId, seq: o.reportSeq })
    st.reportingPlayer.run({ projectId: o.projectId, playerId: o.playerId, at })
  }
  if (crash) {
    const group = st.group.get({ projectId: o.projectId, fingerprint: o.fingerprint, label: o.label, errorType: o.errorType, title: o.title, number: o.reportNumber, at })!
    st.groupVersion.run({ groupId: group.id, gameVersion: o.gameVersion })
    if (o.playerId) {
      if (st.groupPlayer.all({ groupId: group.id, playerId: o.playerId }).length) st.groupPlayers.run({ groupId: group.id })
      if (st.groupVersionPlayer.all({ groupId: group.id, gameVersion: o.gameVersion, playerId: o.playerId }).length) st.groupVersionPlayers.run({ groupId: group.id, gameVersion: o.gameVersion })
    }
  }
  const logs = sectionLines(o.description, 'Recent Logs')
  if (logs) for (const line of new Set(logs.map(normalizeLogLine).filter(Boolean))) st.logLine.run({ projectId: o.projectId, day, line, at })
}

/** Runs `step` in transactions until it reports a short step or `maxSteps` ran; returns the rows handled. */
function steps(db: Db, maxSteps: number, step: (tx: Tx) => number): number {
  let total = 0
  for (let i = 0; i < maxSteps; i++) {
    const n = db.transaction(step)
    total += n
    if (n < ROLLUP_STEP) break
  }
  return total
}

/**
 * Counts the occurrences stored since the cursor (every submission, the first of each report
 * included) into the daily, crash-group, player and log-line rollups, under their report's
 * fingerprint and category as they are now.
 */
export function rollUpOccurrences(db: Db, maxSteps = 100): number {
  return steps(db, maxSteps, (tx) => {
    const after = cursor(tx, OCCURRENCES_CURSOR)
    const rows = tx.all<OccurrenceRow & { createdAt: number }>(sql`
      SELECT o.seq, o.project_id AS projectId, r.seq AS reportSeq, r.report_number AS reportNumber, r.title, o.description, r.category,
        CASE WHEN o.error_type <> '' THEN o.error_type ELSE r.error_type END AS errorType, r.fingerprint, r.grouping_label AS label,
        o.platform, o.game_version AS gameVersion, o.player_id AS playerId, o.created_at AS createdAt,
        NOT EXISTS (SELECT 1 FROM report_occurrences e WHERE e.report_id = o.report_id AND e.seq < o.seq) AS first
      FROM report_occurrences o LEFT JOIN reports r ON r.id = o.report_id
      WHERE o.seq > ${after} ORDER BY o.seq LIMIT ${ROLLUP_STEP}`)
    const st = statementsFor(db)
    // Every occurrence has its report (a cascade deletes them together); one without would only be skipped.
    for (const r of rows) if (r.reportSeq !== null) rollUpOccurrence(st, { ...r, createdAt: new Date(r.createdAt) })
    if (rows.length) setCursor(tx, OCCURRENCES_CURSOR, rows.at(-1)!.seq)
    return rows.length
  })
}

/** Records the versions and version players of the sessions started since the cursor (by rowid). */
export function rollUpSessions(db: Db, maxSteps = 100): number {
  return steps(db, maxSteps, (tx) => {
    const after = cursor(tx, 'analytics_sessions')
    const rows = tx
      .select({ rowid: sql<number>`${playSessions}.rowid`, projectId: playSessions.projectId, gameVersion: playSessions.gameVersion, playerId: playSessions.playerId, startedAt: playSessions.startedAt })
      .from(playSessions)
      .where(sql`${playSessions}.rowid > ${after}`)
      .orderBy(sql`${playSessions}.rowid`)
      .limit(ROLLUP_STEP)
      .all()
    const st = statementsFor(db)
    for (const s of rows) seeVersion(st, s.projectId, s.gameVersion, s.startedAt, s.playerId)
    if (rows.length) setCursor(tx, 'analytics_sessions', rows.at(-1)!.rowid)
    return rows.length
  })
}

/** Adds the performance snapshots stored since the cursor (by rowid) to the histograms, under their report's version and platform. */
export function rollUpPerf(db: Db, maxSteps = 100): number {
  return steps(db, maxSteps, (tx) => {
    const after = cursor(tx, 'analytics_perf')
    const rows = tx
      .select({
        rowid: sql<number>`${perfSnapshots}.rowid`,
        projectId: perfSnapshots.projectId,
        reportId: perfSnapshots.reportId,
        gameVersion: sql<string>`coalesce(${reports.gameVersion}, '')`,
        platform: sql<string>`coalesce(${reports.platform}, '')`,
        fps: perfSnapshots.fps,
        frameTimeMs: perfSnapshots.frameTimeMs,
        memoryUsedMb: perfSnapshots.memoryUsedMb,
        loadTimeSec: perfSnapshots.loadTimeSec,
      })
      .from(perfSnapshots)
      .leftJoin(reports, eq(reports.id, perfSnapshots.reportId))
      .where(sql`${perfSnapshots}.rowid > ${after}`)
      .orderBy(sql`${perfSnapshots}.rowid`)
      .limit(ROLLUP_STEP)
      .all()
    const buckets = new Map<string, { projectId: string; gameVersion: string; platform: string; metric: string; value: number; count: number }>()
    for (const s of rows) {
      for (const m of PERF_METRICS) {
        const raw = s[m.field]
        if (raw === null || !Number.isFinite(raw)) continue
        const value = m.round(raw)
        const metric = s.reportId ? m.key : `${SCENE_LOAD}${m.key}`
        const key = `${s.projectId}|${s.gameVersion}|${s.platform}|${metric}|${value}`
        const b = buckets.get(key) ?? { projectId: s.projectId, gameVersion: s.gameVersion, platform: s.platform, metric, value, count: 0 }
        b.count++
        buckets.set(key, b)
      }
    }
    const st = statementsFor(db)
    for (const b of buckets.values()) st.histogram.run(b)
    if (rows.length) setCursor(tx, 'analytics_perf', rows.at(-1)!.rowid)
    return rows.length
  })
}

const EVENTS_FROM = 'analytics_events_from'

/**
 * Counts the events stored since the cursor into analytics_event_days (per project, day, name, with
 * distinct session tokens), and prunes the days the retention rollup has reached. A first run starts
 * at yesterday's first event: older days are the retention rollup's (or read raw until it runs).
 */
export function rollUpEvents(db: Db, now: Date, maxSteps = 100): number {
  db.transaction((tx) => {
    if (tx.select({ p: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, EVENTS_FROM)).get()) return
    const from = startOfDay(dayOf(new Date(now.getTime() - DAY)))
    // Per name, a range of the (name_id, created_at) index, which carries the id.
    const first = tx.all<{ id: number | null }>(sql`SELECT min((SELECT min(id) FROM events WHERE name_id = n.id AND created_at >= ${from})) AS id FROM event_names n`)[0]?.id
    const last = tx.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)[0]?.id ?? 0
    setCursor(tx, 'analytics_events', first == null ? last : first - 1)
    setCursor(tx, EVENTS_FROM, from)
  })
  // Deleting the newest events (a project's deletion) lets SQLite hand their ids out again: the
  // cursor steps back to the newest id present, so later events are not skipped. Events stored
  // between such a deletion and this run are missed until the retention rollup recounts their day.
  db.transaction((tx) => {
    const max = tx.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)[0]?.id ?? 0
    if (cursor(tx, 'analytics_events') > max) setCursor(tx, 'analytics_events', max)
  })
  const through = db.all<{ through_day: string }>(sql`SELECT through_day FROM telemetry_rollup_state WHERE name = 'events'`)[0]?.through_day
  if (through) {
    db.delete(analyticsEventDays).where(lte(analyticsEventDays.day, through)).run()
    db.delete(analyticsEventDaySessions).where(lte(analyticsEventDaySessions.day, through)).run()
  }
  const st = statementsFor(db)
  return steps(db, maxSteps, (tx) => {
    const after = cursor(tx, 'analytics_events')
    // Events alone by their key (joined to the names, the planner walked each name's whole index).
    const rows = tx
      .select({ id: events.id, nameId: events.nameId, createdAt: events.createdAt, token: events.sessionToken })
      .from(events)
      .where(gt(events.id, after))
      .orderBy(events.id)
      .limit(ROLLUP_STEP)
      .all()
    const ids = [...new Set(rows.map((e) => e.nameId))]
    const names = new Map(ids.length ? tx.select({ id: eventNames.id, projectId: eventNames.projectId, name: eventNames.name }).from(eventNames).where(inArray(eventNames.id, ids)).all().map((n) => [n.id, n]) : [])
    const buckets = new Map<string, { projectId: string; day: string; name: string; count: number; sessions: number }>()
    for (const e of rows) {
      const n = names.get(e.nameId)
      if (!n) continue
      const day = dayOf(new Date(e.createdAt))
      const key = `${e.nameId}|${day}`
      const b = buckets.get(key) ?? { projectId: n.projectId, day, name: n.name, count: 0, sessions: 0 }
      b.count++
      if (e.token !== null && st.eventSession.all({ nameId: e.nameId, day, token: e.token }).length) b.sessions++
      buckets.set(key, b)
    }
    for (const b of buckets.values()) st.eventDay.run(b)
    if (rows.length) setCursor(tx, 'analytics_events', rows.at(-1)!.id)
    return rows.length
  })
}

/** The first day analytics_event_days covers (its first run), or null before it ran. */
export function eventDaysFrom(db: DbOrTx): string | null {
  const p = db.select({ p: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, EVENTS_FROM)).get()?.p
  return p === undefined ? null : dayOf(new Date(p))
}

/** Brings every cursor-driven analytics rollup up to date, or `maxSteps` steps of each nearer. */
export function rollUpAnalytics(db: Db, now: Date, maxSteps = 100): { reports: number; sessions: number; perf: number; events: number } {
  return { reports: rollUpOccurrences(db, maxSteps), sessions: rollUpSessions(db, maxSteps), perf: rollUpPerf(db, maxSteps), events: rollUpEvents(db, now, maxSteps) }
}

