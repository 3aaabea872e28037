import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm'
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

    /**
     * Live reports of the project that analytics compares titles with (triage, regressions), newest
     * first: `numbers` narrows to those numbers, `errorTypes` to those error types, `resolvedWithVersion`
     * to resolved or closed ones that carry an error type and a version; `exceptId` leaves one out;
     * at most `limit`.
     */
    similarCandidates: (projectId: string, o: { exceptId?: string; numbers?: number[]; errorTypes?: string[]; resolvedWithVersion?: boolean; limit: number }) =>
      db.read((q) =>
        q
          .select(candidateCols)
          .from(reports)
          .where(
            and(
              eq(reports.projectId, projectId),
              isNull(reports.deletedAt),
              o.exceptId === undefined ? undefined : ne(reports.id, o.exceptId),
              o.numbers === undefined ? undefined : inArray(reports.reportNumber, o.numbers),
              o.errorTypes === undefined ? undefined : inArray(reports.errorType, o.errorTypes),
              o.resolvedWithVersion ? and(inArray(reports.status, ['resolved', 'closed']), gt(reports.errorType, ''), gt(reports.gameVersion, '')) : undefined,
            ),
          )
          .orderBy(desc(reports.seq))
          .limit(o.limit),
      ),

    /** One live report of the project by id, as `similarCandidates` reads it, or undefined. */
    liveCandidate: async (projectId: string, id: string) =>
      (await db.read((q) => q.select(candidateCols).from(reports).where(and(eq(reports.projectId, projectId), eq(reports.id, id), isNull(reports.deletedAt))).limit(1)))[0],

    /** Reports by id (deleted ones included), as `similarCandidates` reads them. */
    candidatesByIds: async (ids: string[]) => (ids.length ? db.read((q) => q.select(candidateCols).from(reports).where(inArray(reports.id, ids))) : []),

    /** Live reports per status of these projects, as the status-count table keeps them. */
    statusCounts: async (projectIds: string[]) => (projectIds.length ? db.read((q) => q.select().from(reportStatusCounts).where(inArray(reportStatusCounts.projectId, projectIds))) : []),

    /** The game version and platform of these reports (deleted ones included), by id. */
    versionsAndPlatforms: async (ids: string[]): Promise<Map<string, { gameVersion: string; platform: string }>> => {
      const unique = [...new Set(ids)]
      if (!unique.length) return new Map()
      const rows = await db.read((q) => q.select({ id: reports.id, gameVersion: reports.gameVersion, platform: reports.platform }).from(reports).where(inArray(reports.id, unique)))
      return new Map(rows.map((r) => [r.id, r]))
    },

    /** One report (deleted ones too), or undefined. */
    byId: async (id: string) => (await db.read((q) => q.select().from(reports).where(eq(reports.id, id)).limit(1)))[0],

    /** Per project of `projectIds`: reports filed and resolved in [start, end), and open now. */
    weekCounts: (projectIds: string[], start: Date, end: Date) =>
      db.read((q) =>
        q
          .select({
            projectId: reports.projectId,
            created: sql<number>`sum(${reports.createdAt} >= ${start.getTime()} and ${reports.createdAt} < ${end.getTime()})`,
            resolved: sql<number>`sum(${reports.status} in ('resolved', 'closed') and ${reports.updatedAt} >= ${start.getTime()} and ${reports.updatedAt} < ${end.getTime()})`,
            open: sql<number>`sum(${reports.status} in ('open', 'in_progress'))`,
          })
          .from(reports)
          .where(and(inArray(reports.projectId, projectIds), isNull(reports.deletedAt)))
          .groupBy(reports.projectId),
      ),

    /** The `limit` open reports of `projectIds` filed before `end` with the highest priority, newest first on ties. */
    topOpen: (projectIds: string[], end: Date, limit: number) =>
      db.read((q) =>
        q
          .select({ projectId: reports.projectId, number: reports.reportNumber, title: reports.title, priority: reports.priority, status: reports.status })
          .from(reports)
          .where(and(inArray(reports.projectId, projectIds), isNull(reports.deletedAt), inArray(reports.status, ['open', 'in_progress']), lt(reports.createdAt, end)))
          .orderBy(asc(reports.priorityRank), desc(reports.createdAt))
          .limit(limit),
      ),

    /** The first `limit` live reports (by number) game clients (no team member) filed in the project in [from, to), and how many there are. */
    firstGameFiled: (projectId: string, from: Date, to: Date, limit: number) =>
      db.read(async (q) => {
        const inWindow = and(eq(reports.projectId, projectId), isNull(reports.createdBy), isNull(reports.deletedAt), gte(reports.createdAt, from), lt(reports.createdAt, to))
        const listed = await q.select().from(reports).where(inWindow).orderBy(asc(reports.reportNumber)).limit(limit)
        if (listed.length === 0) return { listed, total: 0 }
        const [counted] = await q.select({ total: count() }).from(reports).where(inWindow)
        return { listed, total: counted!.total }
      }),
    /** A project's live reports created since `since` counted by priority, how many are open or in progress, and the `top` most urgent new ones. */
    daySummary: (projectId: string, since: Date, top: number) =>
      db.read(async (q) => {
        const live = and(eq(reports.projectId, projectId), isNull(reports.deletedAt))
        const byPriority = await q.select({ priority: reports.priority, n: count() }).from(reports).where(and(live, gte(reports.createdAt, since))).groupBy(reports.priority)
        const [open] = await q.select({ n: count() }).from(reports).where(and(live, inArray(reports.status, ['open', 'in_progress'])))
        const urgent = await q
          .select({ number: reports.reportNumber, title: reports.title, priority: reports.priority })
          .from(reports)
          .where(and(live, gte(reports.createdAt, since)))
          .orderBy(asc(reports.priorityRank), desc(reports.seq))
          .limit(top)
        return { byPriority, open: open?.n ?? 0, top: urgent }
      }),

    /** The number of each of these reports that is not deleted (deleted and unknown ones are left out). */
    liveNumbers: async (ids: string[]): Promise<Map<string, number>> => {
      if (!ids.length) return new Map()
      const rows = await db.read((q) => q.select({ id: reports.id, number: reports.reportNumber }).from(reports).where(and(inArray(reports.id, ids), isNull(reports.deletedAt))))
      return new Map(rows.map((r) => [r.id, r.number]))
    },

    /** A report that is not deleted, by id, or undefined. */
    liveById: async (id: string) => (await db.read((q) => q.select().from(reports).where(and(eq(reports.id, id), isNull(reports.deletedAt))).limit(1)))[0],
  }
}

const candidateCols = {
  id: reports.id,
  seq: reports.seq,
  reportNumber: reports.reportNumber,
  title: reports.title,
  status: reports.status,
  priority: reports.priority,
  category: reports.category,
  errorType: reports.errorType,
  assignedTo: reports.assignedTo,
  gameVersion: reports.gameVersion,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
}

/** A report as analytics compares it with others (triage, regressions). */
export type ReportCandidate = Awaited<ReturnType<ReturnType<typeof createReportsRepository>['candidatesByIds']>>[number]
