import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, type SQL, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { settledKeys } from '../../db/settled-keys'
import { countWhere } from '../../db/portable-sql'
import { reports } from './reports.table'
import type { Priority, Status } from './reports.types'

const liveIn = (projectId: string) => and(eq(reports.projectId, projectId), isNull(reports.deletedAt))

/** The columns of a CSV export row. */
const exportColumns = {
  seq: reports.seq,
  id: reports.id,
  reportNumber: reports.reportNumber,
  title: reports.title,
  description: reports.description,
  status: reports.status,
  priority: reports.priority,
  category: reports.category,
  platform: reports.platform,
  gameVersion: reports.gameVersion,
  errorType: reports.errorType,
  source: reports.source,
  assignedTo: reports.assignedTo,
  upvotes: reports.upvotes,
  occurrences: reports.occurrenceCount,
  playerCount: reports.playerCount,
  firstSeen: reports.firstSeen,
  lastSeen: reports.lastSeen,
  firstVersion: reports.firstVersion,
  lastVersion: reports.lastVersion,
  reporterName: reports.reporterName,
  createdAt: reports.createdAt,
  updatedAt: reports.updatedAt,
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

/**
 * The reports repository's reads over many reports at once (reports.repository.ts spreads them in):
 * what digests, analytics, similar-report suggestions, exports and hourly counts ask of the table.
 */
export function reportSummariesRepository({ db }: { db: Seam }) {
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

    /** Per project of `projectIds`: reports filed and resolved in [start, end), and open now. */
    weekCounts: (projectIds: string[], start: Date, end: Date) =>
      db.read((q) =>
        q
          .select({
            projectId: reports.projectId,
            created: countWhere(and(gte(reports.createdAt, start), lt(reports.createdAt, end))!),
            resolved: countWhere(and(inArray(reports.status, ['resolved', 'closed']), gte(reports.updatedAt, start), lt(reports.updatedAt, end))!),
            open: countWhere(inArray(reports.status, ['open', 'in_progress'])),
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

    /**
     * Up to `limit` live reports of the project after seq `after`, oldest first, with the CSV's columns:
     * a keyset chunk of an export.
     */
    exportChunk: (projectId: string, f: { after: number; status?: Status; priority?: Priority }, limit: number) =>
      db.read((q) =>
        q
          .select(exportColumns)
          .from(reports)
          .where(and(liveIn(projectId), gt(reports.seq, f.after), f.status === undefined ? undefined : eq(reports.status, f.status), f.priority === undefined ? undefined : eq(reports.priority, f.priority)))
          .orderBy(asc(reports.seq))
          .limit(limit),
      ),

    /** The highest report seq, 0 without reports. */
    maxSeq: async (): Promise<number> => (await db.read((q) => q.select({ seq: sql<number | null>`max(${reports.seq})` }).from(reports)))[0]?.seq ?? 0,

    /**
     * Up to `limit` reports after `seq`, in seq order, with what hourly counts need (walks the primary
     * key only). `settledOnly`: only those no filing still in progress can precede, for a cursor that
     * moves past what it reads (settled-keys.ts); a search that only probes seqs needs no such wait.
     */
    afterSeq: (seq: number, limit: number, { settledOnly = false } = {}) =>
      db.read(async (q) =>
        q
          .select({ seq: reports.seq, projectId: reports.projectId, createdAt: reports.createdAt, category: reports.category, sentiment: reports.sentimentLevel })
          .from(reports)
          .where(and(gt(reports.seq, seq), settledOnly ? await settledKeys(q, { table: 'reports', column: 'seq' }) : undefined))
          .orderBy(reports.seq)
          .limit(limit),
      ),

    /**
     * The live reports `userId` filed, plus every live report of `ownedProjectIds`, leaving out those in
     * `hiddenProjectIds`, in filing order (a personal data export).
     */
    exportableBy: (userId: string, ownedProjectIds: string[], hiddenProjectIds: string[]) =>
      db.read((q) =>
        q
          .select()
          .from(reports)
          .where(
            and(
              isNull(reports.deletedAt),
              hiddenProjectIds.length ? notInArray(reports.projectId, hiddenProjectIds) : undefined,
              ownedProjectIds.length ? or(eq(reports.createdBy, userId), inArray(reports.projectId, ownedProjectIds)) : eq(reports.createdBy, userId),
            ),
          )
          .orderBy(asc(reports.seq)),
      ),

    /** Live, assigned reports not in a `done` status whose due date passed in (`since`, `now`] (read through `reports_due_idx`). */
    assignedDueBetween: (since: Date, now: Date, done: readonly Status[]) =>
      db.read((q) =>
        q
          .select({ id: reports.id, number: reports.reportNumber, title: reports.title, dueDate: reports.dueDate, assignedTo: reports.assignedTo, projectId: reports.projectId })
          .from(reports)
          .where(and(isNull(reports.deletedAt), isNotNull(reports.dueDate), gt(reports.dueDate, since), lte(reports.dueDate, now), notInArray(reports.status, [...done]), isNotNull(reports.assignedTo))),
      ),
  }
}

/** A report as analytics compares it with others (triage, regressions). */
export type ReportCandidate = Awaited<ReturnType<ReturnType<typeof reportSummariesRepository>['candidatesByIds']>>[number]
