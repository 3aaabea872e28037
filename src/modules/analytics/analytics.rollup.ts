import { eq, gt, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { reports } from '../reports/reports.table'
import { perfSnapshots, playSessions } from '../sdk/sdk.table'
import { countNewReports } from '../workflow/hourly-counts'
import { rollupCursors } from '../workflow/workflow.table'
import { isCrashReport, normalizeLogLine, sectionLines, topFrame } from './crash.normalize'
import {
  analyticsCrashGroupPlayers,
  analyticsCrashGroups,
  analyticsCrashGroupVersions,
  analyticsDailyReports,
  analyticsLogLines,
  analyticsPerfHistogram,
  analyticsPlayerReports,
  analyticsVersionPlayers,
  analyticsVersions,
} from './analytics.table'
import { PERF_METRICS, SCENE_LOAD } from './perf.metrics'

/** Rows per step: one step holds the write lock for a few milliseconds. */
const STEP = 2_000
const dayOf = (d: Date) => d.toISOString().slice(0, 10)

function cursor(tx: Tx, name: string): number {
  return tx.select({ position: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, name)).get()?.position ?? 0
}
function setCursor(tx: Tx, name: string, position: number) {
  tx.insert(rollupCursors).values({ name, position }).onConflictDoUpdate({ target: rollupCursors.name, set: { position } }).run()
}

function seeVersion(tx: Tx, projectId: string, gameVersion: string, at: Date, playerId: string | null) {
  if (gameVersion === '') return
  tx.insert(analyticsVersions).values({ projectId, gameVersion, firstSeen: at }).onConflictDoNothing().run()
  if (playerId) tx.insert(analyticsVersionPlayers).values({ projectId, gameVersion, playerId }).onConflictDoNothing().run()
}

type ReportRow = Pick<typeof reports.$inferSelect, 'seq' | 'projectId' | 'reportNumber' | 'title' | 'description' | 'category' | 'errorType' | 'platform' | 'gameVersion' | 'playerId' | 'createdAt'>

function rollUpReport(tx: Tx, r: ReportRow) {
  const day = dayOf(r.createdAt)
  const crash = isCrashReport(r) ? 1 : 0
  tx.insert(analyticsDailyReports)
    .values({ projectId: r.projectId, day, gameVersion: r.gameVersion, platform: r.platform, reports: 1, crashReports: crash })
    .onConflictDoUpdate({
      target: [analyticsDailyReports.projectId, analyticsDailyReports.day, analyticsDailyReports.gameVersion, analyticsDailyReports.platform],
      set: { reports: sql`${analyticsDailyReports.reports} + 1`, crashReports: sql`${analyticsDailyReports.crashReports} + ${crash}` },
    })
    .run()
  seeVersion(tx, r.projectId, r.gameVersion, r.createdAt, r.playerId)
  if (r.playerId) tx.insert(analyticsPlayerReports).values({ projectId: r.projectId, playerId: r.playerId, reportSeq: r.seq }).onConflictDoNothing().run()
  if (crash) {
    const group = tx
      .insert(analyticsCrashGroups)
      .values({ projectId: r.projectId, errorType: r.errorType, frame: topFrame(r.description), sampleTitle: r.title, sampleReportNumber: r.reportNumber, count: 1, firstSeen: r.createdAt, lastSeen: r.createdAt })
      .onConflictDoUpdate({
        target: [analyticsCrashGroups.projectId, analyticsCrashGroups.errorType, analyticsCrashGroups.frame],
        set: { count: sql`${analyticsCrashGroups.count} + 1`, sampleTitle: r.title, sampleReportNumber: r.reportNumber, lastSeen: sql`max(${analyticsCrashGroups.lastSeen}, excluded.last_seen)`, firstSeen: sql`min(${analyticsCrashGroups.firstSeen}, excluded.first_seen)` },
      })
      .returning({ id: analyticsCrashGroups.id })
      .get()!
    tx.insert(analyticsCrashGroupVersions)
      .values({ groupId: group.id, gameVersion: r.gameVersion, count: 1 })
      .onConflictDoUpdate({ target: [analyticsCrashGroupVersions.groupId, analyticsCrashGroupVersions.gameVersion], set: { count: sql`${analyticsCrashGroupVersions.count} + 1` } })
      .run()
    if (r.playerId) {
      const added = tx.insert(analyticsCrashGroupPlayers).values({ groupId: group.id, playerId: r.playerId }).onConflictDoNothing().returning({ g: analyticsCrashGroupPlayers.groupId }).all()
      if (added.length) tx.update(analyticsCrashGroups).set({ players: sql`${analyticsCrashGroups.players} + 1` }).where(eq(analyticsCrashGroups.id, group.id)).run()
    }
  }
  const logs = sectionLines(r.description, 'Recent Logs')
  if (logs) {
    for (const line of new Set(logs.map(normalizeLogLine).filter(Boolean))) {
      tx.insert(analyticsLogLines)
        .values({ projectId: r.projectId, day, line, count: 1, lastSeen: r.createdAt })
        .onConflictDoUpdate({
          target: [analyticsLogLines.projectId, analyticsLogLines.day, analyticsLogLines.line],
          set: { count: sql`${analyticsLogLines.count} + 1`, lastSeen: sql`max(${analyticsLogLines.lastSeen}, excluded.last_seen)` },
        })
        .run()
    }
  }
}

/** Runs `step` in transactions until it reports a short step or `maxSteps` ran; returns the rows handled. */
function steps(db: Db, maxSteps: number, step: (tx: Tx) => number): number {
  let total = 0
  for (let i = 0; i < maxSteps; i++) {
    const n = db.transaction(step)
    total += n
    if (n < STEP) break
  }
  return total
}

/** Counts the reports filed since the cursor into the daily, crash-group, player and log-line rollups. */
export function rollUpReports(db: Db, maxSteps = 100): number {
  return steps(db, maxSteps, (tx) => {
    const after = cursor(tx, 'analytics_reports')
    const rows = tx
      .select({ seq: reports.seq, projectId: reports.projectId, reportNumber: reports.reportNumber, title: reports.title, description: reports.description, category: reports.category, errorType: reports.errorType, platform: reports.platform, gameVersion: reports.gameVersion, playerId: reports.playerId, createdAt: reports.createdAt })
      .from(reports)
      .where(gt(reports.seq, after))
      .orderBy(reports.seq)
      .limit(STEP)
      .all()
    for (const r of rows) rollUpReport(tx, r)
    if (rows.length) setCursor(tx, 'analytics_reports', rows.at(-1)!.seq)
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
      .limit(STEP)
      .all()
    for (const s of rows) seeVersion(tx, s.projectId, s.gameVersion, s.startedAt, s.playerId)
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
      .limit(STEP)
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
    for (const b of buckets.values()) {
      tx.insert(analyticsPerfHistogram)
        .values(b)
        .onConflictDoUpdate({
          target: [analyticsPerfHistogram.projectId, analyticsPerfHistogram.gameVersion, analyticsPerfHistogram.platform, analyticsPerfHistogram.metric, analyticsPerfHistogram.value],
          set: { count: sql`${analyticsPerfHistogram.count} + ${b.count}` },
        })
        .run()
    }
    if (rows.length) setCursor(tx, 'analytics_perf', rows.at(-1)!.rowid)
    return rows.length
  })
}

/** Brings every cursor-driven analytics rollup up to date (and the workflow's hourly report counts that usage reads). */
export function rollUpAnalytics(db: Db): { reports: number; sessions: number; perf: number } {
  countNewReports(db)
  return { reports: rollUpReports(db), sessions: rollUpSessions(db), perf: rollUpPerf(db) }
}

