import { and, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db, Seam } from '../../db/client'
import { accounts } from '../accounts/accounts.table'
import { activity } from '../activity/activity.table'
import { projects } from '../projects/projects.table'
import { reports, reportStatusCounts } from './reports.table'

type ReportRow = typeof reports.$inferSelect

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

    /** The report, or undefined. */
    byId: async (id: string): Promise<ReportRow | undefined> => (await db.read((q) => q.select().from(reports).where(eq(reports.id, id)).limit(1)))[0],

    /** The project's report numbered `number` (deleted ones too), or undefined. */
    byNumber: async (projectId: string, number: number): Promise<ReportRow | undefined> =>
      (await db.read((q) => q.select().from(reports).where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, number))).limit(1)))[0],

    /** The report number of each id. */
    numbersOf: async (ids: string[]): Promise<Map<string, number>> =>
      ids.length ? new Map((await db.read((q) => q.select({ id: reports.id, n: reports.reportNumber }).from(reports).where(inArray(reports.id, ids)))).map((r) => [r.id, r.n])) : new Map(),

    /** Whether the project has a report that `which` names: `sdk` one filed without a user (by a game client), `live` one not deleted. */
    hasReport: async (projectId: string, which: 'sdk' | 'live'): Promise<boolean> =>
      (await db.read((q) => q.select({ one: reports.seq }).from(reports).where(and(eq(reports.projectId, projectId), isNull(which === 'sdk' ? reports.createdBy : reports.deletedAt))).limit(1))).length > 0,

    /** Changes a report; the row as it is now. */
    update: async (id: string, changes: Partial<Pick<ReportRow, 'status' | 'dueDate' | 'updatedAt'>>): Promise<ReportRow | undefined> =>
      (await db.write((q) => q.update(reports).set(changes).where(eq(reports.id, id)).returning()))[0],

    /** Number, title, status and deletion time of the reports with these ids. */
    summariesOf: (ids: string[]) =>
      ids.length
        ? db.read((q) => q.select({ id: reports.id, number: reports.reportNumber, title: reports.title, status: reports.status, deletedAt: reports.deletedAt }).from(reports).where(inArray(reports.id, ids)))
        : Promise.resolve([]),

    /** The highest report seq, 0 without reports. */
    maxSeq: async (): Promise<number> => (await db.read((q) => q.select({ seq: sql<number | null>`max(${reports.seq})` }).from(reports)))[0]?.seq ?? 0,

    /** Up to `limit` reports after `seq`, in seq order, with what hourly counts need (walks the primary key only). */
    afterSeq: (seq: number, limit: number) =>
      db.read((q) =>
        q
          .select({ seq: reports.seq, projectId: reports.projectId, createdAt: reports.createdAt, category: reports.category, sentiment: reports.sentimentLevel })
          .from(reports)
          .where(gt(reports.seq, seq))
          .orderBy(reports.seq)
          .limit(limit),
      ),
  }
}
