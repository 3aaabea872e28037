import { and, eq, gt, gte, sql } from 'drizzle-orm'
import type { DbOrTx, Tx } from '../../db/client'
import { reports } from '../reports/reports.table'
import { reportHourlyCounts, rollupCursors } from './workflow.table'
import { inShortSteps } from '../../jobs/short-steps'

const HOUR = 3600_000
const CURSOR = 'report_hourly_counts'
/**
 * Reports counted per step: one step holds the write lock for a few milliseconds (in steps of 5,000,
 * catching up after a burst of 55,000 reports held it for 260 ms; see inShortSteps).
 */
const STEP = 500
/** The longest alert window (30 days): older reports never matter, so a first run starts there. */
const LONGEST_WINDOW_MS = 30 * 24 * HOUR

/**
 * The first seq filed within the last 30 days, by binary search over the reports' primary key (filing
 * time grows with seq): a server that had a million reports before alerts existed counts only the
 * month that can matter, not every report it ever had.
 */
function startingCursor(tx: Tx, now: Date): number {
  const since = now.getTime() - LONGEST_WINDOW_MS
  const at = (seq: number) => tx.select({ seq: reports.seq, createdAt: reports.createdAt }).from(reports).where(gt(reports.seq, seq)).orderBy(reports.seq).limit(1).get()
  const last = tx.select({ seq: sql<number | null>`max(${reports.seq})` }).from(reports).get()?.seq ?? 0
  let lo = 0
  let hi = last
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    const next = at(mid)
    if (next && next.createdAt.getTime() < since) lo = next.seq
    else hi = mid
  }
  return lo
}

/**
 * Counts the reports added since the cursor into hourly buckets (all, crash category, negative
 * sentiment), one step at a time; returns how many it counted. Walks the reports' primary key only.
 */
export async function countNewReports(db: { transaction<T>(fn: (tx: Tx) => T): T }, now: Date, maxSteps = 100): Promise<number> {
  let counted = 0
  const countStep = () => {
    const n = db.transaction((tx) => {
      const after = tx.select({ position: rollupCursors.position }).from(rollupCursors).where(eq(rollupCursors.name, CURSOR)).get()?.position ?? startingCursor(tx, now)
      const rows = tx
        .select({ seq: reports.seq, projectId: reports.projectId, createdAt: reports.createdAt, category: reports.category, sentiment: reports.sentimentLevel })
        .from(reports)
        .where(gt(reports.seq, after))
        .orderBy(reports.seq)
        .limit(STEP)
        .all()
      if (rows.length === 0) return 0
      const buckets = new Map<string, { projectId: string; hour: number; reports: number; crashes: number; negative: number }>()
      for (const r of rows) {
        const hour = Math.floor(r.createdAt.getTime() / HOUR) * HOUR
        const key = `${r.projectId}|${hour}`
        const b = buckets.get(key) ?? { projectId: r.projectId, hour, reports: 0, crashes: 0, negative: 0 }
        b.reports++
        if (r.category === 'crash') b.crashes++
        if (r.sentiment === 'negative') b.negative++
        buckets.set(key, b)
      }
      for (const b of buckets.values()) {
        tx.insert(reportHourlyCounts)
          .values({ projectId: b.projectId, hour: new Date(b.hour), reports: b.reports, crashReports: b.crashes, negativeReports: b.negative })
          .onConflictDoUpdate({
            target: [reportHourlyCounts.projectId, reportHourlyCounts.hour],
            set: {
              reports: sql`${reportHourlyCounts.reports} + ${b.reports}`,
              crashReports: sql`${reportHourlyCounts.crashReports} + ${b.crashes}`,
              negativeReports: sql`${reportHourlyCounts.negativeReports} + ${b.negative}`,
            },
          })
          .run()
      }
      const last = rows.at(-1)!.seq
      tx.insert(rollupCursors).values({ name: CURSOR, position: last }).onConflictDoUpdate({ target: rollupCursors.name, set: { position: last } }).run()
      return rows.length
    })
    counted += n
    return n === STEP
  }
  await inShortSteps(countStep, maxSteps)
  return counted
}

/** New reports, crash reports and negative reports of a project since `since` (whole hours: the bucket holding `since` counts). */
export function reportCountsSince(db: DbOrTx, projectId: string, since: Date) {
  const from = new Date(Math.floor(since.getTime() / HOUR) * HOUR)
  return (
    db
      .select({
        reports: sql<number>`coalesce(sum(${reportHourlyCounts.reports}), 0)`,
        crashReports: sql<number>`coalesce(sum(${reportHourlyCounts.crashReports}), 0)`,
        negativeReports: sql<number>`coalesce(sum(${reportHourlyCounts.negativeReports}), 0)`,
      })
      .from(reportHourlyCounts)
      .where(and(eq(reportHourlyCounts.projectId, projectId), gte(reportHourlyCounts.hour, from)))
      .get() ?? { reports: 0, crashReports: 0, negativeReports: 0 }
  )
}
