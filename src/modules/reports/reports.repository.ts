import { and, eq, gt, inArray, type SQL, sql } from 'drizzle-orm'
import type { Db, Seam } from '../../db/client'
import { accounts } from '../accounts/accounts.table'
import { activity } from '../activity/activity.table'
import { projects } from '../projects/projects.table'
import { reports, reportStatusCounts } from './reports.table'

// Placeholders in column positions pass through the column's encoder (Dates, JSON); inside raw `sql` they do not.
const p = (name: string) => sql.placeholder(name)

/** Prepared statements of report creation: the SDK submit path runs them for every new report. */
function prepare(db: Db) {
  return {
    /** Counts one report against the account's lifetime quota and returns the new total with the plan. */
    chargeReport: db
      .update(accounts)
      .set({ reportsCreated: sql`${accounts.reportsCreated} + 1` })
      .where(eq(accounts.id, p('accountId')))
      .returning({ used: accounts.reportsCreated, plan: accounts.plan })
      .prepare(),
    /** Takes the project's next report number (never repeated or skipped: the counter moves in the inserting transaction). */
    nextNumber: db
      .update(projects)
      .set({
        lastReportNumber: sql`${projects.lastReportNumber} + 1`,
        liveReportCount: sql`${projects.liveReportCount} + 1`,
        firstReportAt: sql`coalesce(${projects.firstReportAt}, ${p('nowMs')})`,
      })
      .where(eq(projects.id, p('projectId')))
      .returning({ number: projects.lastReportNumber })
      .prepare(),
    insert: db
      .insert(reports)
      .values({
        id: p('id'),
        projectId: p('projectId'),
        reportNumber: p('reportNumber'),
        title: p('title'),
        description: p('description'),
        priority: p('priority'),
        priorityRank: p('priorityRank'),
        category: p('category'),
        platform: p('platform'),
        gameVersion: p('gameVersion'),
        osInfo: p('osInfo'),
        deviceInfo: p('deviceInfo'),
        stepsToReproduce: p('stepsToReproduce'),
        expectedBehavior: p('expectedBehavior'),
        actualBehavior: p('actualBehavior'),
        source: p('source'),
        errorType: p('errorType'),
        titleTerms: p('titleTerms'),
        fingerprint: p('fingerprint'),
        groupingLabel: p('groupingLabel'),
        playerCount: p('playerCount'),
        firstSeen: p('now'),
        lastSeen: p('now'),
        firstVersion: p('gameVersion'),
        lastVersion: p('gameVersion'),
        versions: p('versions'),
        reporterName: p('reporterName'),
        reporterEmail: p('reporterEmail'),
        playerId: p('playerId'),
        metadata: p('metadata'),
        screenshotKey: p('screenshotKey'),
        sentimentScore: p('sentimentScore'),
        sentimentLevel: p('sentimentLevel'),
        createdBy: p('createdBy'),
        createdAt: p('now'),
        updatedAt: p('now'),
      })
      .returning()
      .prepare(),
    activity: db
      .insert(activity)
      .values({ projectId: p('projectId'), reportId: p('reportId'), actorId: p('actorId'), action: 'created', createdAt: p('now') })
      .prepare(),
  }
}

export type ReportWriteStatements = ReturnType<typeof prepare>

const cache = new WeakMap<Db, ReportWriteStatements>()

/** The report-creation statements of `db`, prepared once per database. They join the caller's open transaction. */
export function reportWriteStatements(db: Db): ReportWriteStatements {
  let s = cache.get(db)
  if (!s) cache.set(db, (s = prepare(db)))
  return s
}

/** Reads and writes of reports that other domains need, as async functions over the database seam. */
export function createReportsRepository({ db }: { db: Seam }) {
  return {
    /** Up to `limit` reports that `visible` lets through, now resolved or closed and changed after `since`, by number. */
    resolvedSince: (visible: SQL, since: Date | null, limit: number) =>
      db.read((q) =>
        q
          .select({ number: reports.reportNumber, title: reports.title, category: reports.category })
          .from(reports)
          .where(and(visible, inArray(reports.status, ['resolved', 'closed']), since ? gt(reports.updatedAt, since) : undefined))
          .orderBy(reports.reportNumber)
          .limit(limit),
      ),

    /** Live report counts per project and status for `projectIds`, from the trigger-maintained counts table. */
    statusCountsOf: (projectIds: string[]) =>
      db.read((q) => q.select({ projectId: reportStatusCounts.projectId, status: reportStatusCounts.status, n: reportStatusCounts.n }).from(reportStatusCounts).where(inArray(reportStatusCounts.projectId, projectIds))),
  }
}
