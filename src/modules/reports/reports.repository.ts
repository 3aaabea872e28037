import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, or, type SQL, sql } from 'drizzle-orm'
import { indexedBy, preparedPerConnection, type Query, type Seam } from '../../db/client'
import { together } from '../../db/together'
import { countWhere, LITERAL_LIMIT_1 } from '../../db/portable-sql'
import { createAccountsRepository } from '../auth/accounts.repository'
// Report creation's prepared statements (below) charge the account, take the project's next number and
// record the activity in the filing write, in one statement each on the submit path's hot path: they
// name those tables rather than call three repositories per report.
import { accounts } from '../auth/accounts.table'
import { activity } from '../activity/activity.table'
import { projects } from '../projects/projects.table'
import { reportFacets } from './report-facets'
import { reports, reportStatusCounts } from './reports.table'
import type { Category, Priority, Status } from './reports.types'

export type Report = typeof reports.$inferSelect
/** Columns an update may set. */
export type ReportChanges = Partial<Omit<typeof reports.$inferInsert, 'id' | 'seq' | 'projectId'>>
/** Reports named by id or by number (within a project). */
export type ReportSelector = { ids: string[] } | { numbers: number[] }
/**
 * A new report's row as `insertNew` writes it: `now` is its filing time, `at` when its first occurrence
 * happened (its first and last seen), `versions` and `titleTerms` JSON and words as stored, `handled`
 * 1, 0 or null (bound as a number: the boolean column's encoder would make null false).
 */
export type NewReportRow = Pick<
  typeof reports.$inferInsert,
  | 'id' | 'projectId' | 'reportNumber' | 'title' | 'description' | 'priority' | 'priorityRank' | 'category' | 'platform' | 'gameVersion' | 'osInfo' | 'deviceInfo'
  | 'stepsToReproduce' | 'expectedBehavior' | 'actualBehavior' | 'source' | 'errorType' | 'titleTerms' | 'fingerprint' | 'groupingLabel' | 'playerCount'
  | 'versions' | 'reporterName' | 'reporterEmail' | 'playerId' | 'metadata' | 'screenshotKey' | 'sentimentScore' | 'sentimentLevel' | 'createdBy' | 'level'
> & { handled: number | null; at: Date; now: Date }

const liveIn = (projectId: string) => and(eq(reports.projectId, projectId), isNull(reports.deletedAt))
const selected = (which: ReportSelector) => ('ids' in which ? inArray(reports.id, which.ids) : inArray(reports.reportNumber, which.numbers))

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


// Placeholders in column positions pass through the column's encoder (Dates, JSON); inside raw `sql` they do not.
const p = (name: string) => sql.placeholder(name)

/** The reports repository over `db`, built once per handle (the ingest path asks for it in every write). */
export const reportsRepositoryOf = preparedPerConnection((db) => createReportsRepository({ db }))

/** Reads and writes of reports, as async functions over the database seam (the list's are in reports.list.repository.ts). */
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

    /** The number of each of these reports that is not deleted (deleted and unknown ones are left out). */
    liveNumbers: async (ids: string[]): Promise<Map<string, number>> => {
      if (!ids.length) return new Map()
      const rows = await db.read((q) => q.select({ id: reports.id, number: reports.reportNumber }).from(reports).where(and(inArray(reports.id, ids), isNull(reports.deletedAt))))
      return new Map(rows.map((r) => [r.id, r.number]))
    },

    /** A report that is not deleted, by id, or undefined. */
    liveById: async (id: string) => (await db.read((q) => q.select().from(reports).where(and(eq(reports.id, id), isNull(reports.deletedAt))).limit(1)))[0],
    /** The number and title of each of these reports (deleted ones too), by id. */
    numbersAndTitles: async (ids: string[]): Promise<Map<string, { number: number; title: string }>> => {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return new Map()
      const rows = await db.read((q) => q.select({ id: reports.id, number: reports.reportNumber, title: reports.title }).from(reports).where(inArray(reports.id, unique)))
      return new Map(rows.map((r) => [r.id, { number: r.number, title: r.title }]))
    },

    /** The project's live report with this number, or undefined. */
    findLive: async (projectId: string, number: number): Promise<Report | undefined> =>
      (await db.read((q) => q.select().from(reports).where(and(liveIn(projectId), eq(reports.reportNumber, number))).limit(1)))[0],

    /** The number of the live report that report `number` was merged into (following later merges), or null. */
    survivorOf: async (projectId: string, number: number): Promise<number | null> => {
      let [row] = await db.read((q) => q.select({ mergedInto: reports.mergedInto }).from(reports).where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, number))).limit(1))
      // A chain of merges is short; the bound only guards against a cycle in a damaged database.
      for (let hops = 0; row?.mergedInto && hops < 100; hops++) {
        const id = row.mergedInto
        const [next] = await db.read((q) => q.select({ number: reports.reportNumber, mergedInto: reports.mergedInto, deletedAt: reports.deletedAt }).from(reports).where(eq(reports.id, id)).limit(1))
        if (!next) return null
        if (!next.mergedInto) return next.deletedAt ? null : next.number
        row = next
      }
      return null
    },

    /** Number and title of the live report `id`, or null. */
    liveSummary: async (id: string): Promise<{ report_number: number; title: string } | null> =>
      (await db.read((q) => q.select({ report_number: reports.reportNumber, title: reports.title }).from(reports).where(and(eq(reports.id, id), isNull(reports.deletedAt))).limit(1)))[0] ?? null,

    /** Number and title of the live reports filed as feedback on report `id`, oldest first. */
    feedbackOn: (id: string) =>
      db.read((q) => q.select({ report_number: reports.reportNumber, title: reports.title }).from(reports).where(and(eq(reports.feedbackFor, id), isNull(reports.deletedAt))).orderBy(asc(reports.seq))),

    /** The project ids `userId` may see in the account, or undefined when not a member (the accounts domain holds memberships). */
    memberProjectIds: async (accountId: string, userId: string): Promise<{ projectIds: string[] | null } | undefined> => {
      const m = await createAccountsRepository({ db }).membership(accountId, userId)
      return m && { projectIds: m.projectIds }
    },

    /** The project's live reports that `which` names. */
    liveReports: (projectId: string, which: ReportSelector) => db.read((q) => q.select().from(reports).where(and(liveIn(projectId), selected(which)))),

    /** Sets the same columns on these reports; returns them as they are now. */
    updateMany: (ids: string[], changes: ReportChanges) => db.write((q) => q.update(reports).set(changes).where(inArray(reports.id, ids)).returning()),

    /** Sets columns of one report; the row as it is now, or undefined when it is gone. */
    update: async (id: string, changes: ReportChanges): Promise<Report | undefined> => (await db.write((q) => q.update(reports).set(changes).where(eq(reports.id, id)).returning()))[0],

    /** Soft-deletes the project's live reports that `which` names (one UPDATE); returns their ids. */
    softDelete: (projectId: string, which: ReportSelector, now: Date) =>
      db.write((q) => q.update(reports).set({ deletedAt: now }).where(and(liveIn(projectId), selected(which))).returning({ id: reports.id })),

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

    /** Live report counts per project and status for `projectIds`, from the trigger-maintained counts table. */
    statusCountsOf: (projectIds: string[]) =>
      db.read((q) => q.select({ projectId: reportStatusCounts.projectId, status: reportStatusCounts.status, n: reportStatusCounts.n }).from(reportStatusCounts).where(inArray(reportStatusCounts.projectId, projectIds))),

    /** The project's report numbered `number` (deleted ones too), or undefined. */
    byNumber: async (projectId: string, number: number): Promise<Report | undefined> =>
      (await db.read((q) => q.select().from(reports).where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, number))).limit(1)))[0],

    /** The report number of each id. */
    numbersOf: async (ids: string[]): Promise<Map<string, number>> =>
      ids.length ? new Map((await db.read((q) => q.select({ id: reports.id, n: reports.reportNumber }).from(reports).where(inArray(reports.id, ids)))).map((r) => [r.id, r.n])) : new Map(),

    /** Whether the project has a report that `which` names: `sdk` one filed without a user (by a game client), `live` one not deleted. */
    hasReport: async (projectId: string, which: 'sdk' | 'live'): Promise<boolean> =>
      (await db.read((q) => q.select({ one: reports.seq }).from(reports).where(and(eq(reports.projectId, projectId), isNull(which === 'sdk' ? reports.createdBy : reports.deletedAt))).limit(1))).length > 0,

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

    /**
     * The report a submission with this grouping key joins: the project's oldest live report with the
     * key that still takes occurrences (open, in progress, resolved), or undefined. The ingest path's read.
     */
    groupingTarget: async (projectId: string, fingerprint: string): Promise<GroupingTarget | undefined> =>
      (await db.read((q) => ingestStatementsOf(q).target.execute({ projectId, fingerprint })))[0],

    /**
     * One more occurrence of report `seq`: its time, its version (an empty one leaves the last known),
     * the versions it now lists, whether it brought a new player, and the list facets it adds
     * (report-facets.ts: `[kind, value]`, those the report has already left, in one statement).
     * `updated_at` stays: it is the team's last change.
     */
    countOccurrence: (o: { projectId: string; seq: number; newPlayer: boolean; at: Date; level: string | null; handled: number | null; version: string; versions: string; facets: [number, string][] }) =>
      db.write(async (q) => {
        const st = ingestStatementsOf(q)
        await together([st.counted.execute({ seq: o.seq, newPlayer: o.newPlayer ? 1 : 0, atMs: o.at.getTime(), level: o.level, handled: o.handled, version: o.version, versions: o.versions }), insertFacets(q, o.projectId, o.seq, o.facets)])
      }),

    /** Reopens a resolved report a newer build regressed in; the report as it is now. */
    markRegressed: async (id: string, version: string, now: Date): Promise<typeof reports.$inferSelect> => {
      const [row] = await db.write((q) => q.update(reports).set({ status: 'open', regressedInVersion: version, regressedAt: now, updatedAt: now }).where(eq(reports.id, id)).returning())
      return row!
    },

    /** Report `id` when it is a live report of the project (the SDK's and Sentry's references to one), or undefined. */
    liveInProject: async (projectId: string, id: string): Promise<{ id: string; projectId: string; number: number } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ id: reports.id, projectId: reports.projectId, number: reports.reportNumber })
          .from(reports)
          .where(and(eq(reports.id, id), eq(reports.projectId, projectId), isNull(reports.deletedAt)))
          .limit(1),
      )
      return row
    },

    /** Records that report `id` is player feedback about report `aboutId`. */
    setFeedbackFor: (id: string, aboutId: string) => db.write((q) => q.update(reports).set({ feedbackFor: aboutId }).where(eq(reports.id, id))),

    /** The live reports of the project with these numbers (numbers with none are missing). */
    liveByNumbers: (projectId: string, numbers: number[]) =>
      db.read((q) => q.select().from(reports).where(and(eq(reports.projectId, projectId), inArray(reports.reportNumber, numbers), isNull(reports.deletedAt)))),

    /** The reports with these ids. */
    byIds: (ids: string[]) => db.read((q) => q.select().from(reports).where(inArray(reports.id, ids))),

    /** Deletes reports merged into `survivorId`, their numbers kept to redirect there. */
    markMerged: (ids: string[], survivorId: string, now: Date) =>
      db.write((q) => q.update(reports).set({ deletedAt: now, mergedInto: survivorId, updatedAt: now }).where(inArray(reports.id, ids))),

    /** A report's occurrence, player and upvote counts. */
    countsOf: async (id: string): Promise<{ occurrences: number; players: number; upvotes: number } | undefined> =>
      (await db.read((q) => q.select({ occurrences: reports.occurrenceCount, players: reports.playerCount, upvotes: reports.upvotes }).from(reports).where(eq(reports.id, id)).limit(1)))[0],

    /** Sets report `seq`'s occurrence counts, counted again from its occurrences (split, merge). */
    setOccurrenceCounts: (seq: number, counts: Pick<typeof reports.$inferInsert, 'occurrenceCount' | 'playerCount' | 'firstSeen' | 'lastSeen' | 'firstVersion' | 'lastVersion' | 'versions'>) =>
      db.write((q) => q.update(reports).set(counts).where(eq(reports.seq, seq))),

    /** Adds `n` upvotes to the report (votes carried over by a merge). */
    addUpvotes: (id: string, n: number) => db.write(async (q) => void (await q.update(reports).set({ upvotes: sql`${reports.upvotes} + ${n}` }).where(eq(reports.id, id)))),

    /** Counts one report against the account's lifetime quota (it never goes down); the new total and the plan, or undefined without the account. */
    chargeReport: async (accountId: string): Promise<{ used: number; plan: string } | undefined> =>
      (await db.write((q) => ingestStatementsOf(q).chargeReport.execute({ accountId })))[0],

    /** Takes the project's next report number and counts one more live report (the counter moves in the filing write: numbers never repeat or skip). */
    takeNumber: async (projectId: string, now: Date): Promise<number> =>
      (await db.write((q) => ingestStatementsOf(q).nextNumber.execute({ projectId, nowMs: now.getTime() })))[0]!.number,

    /** Inserts a new report (the values `insertNew` names; `now` its time) and returns it. */
    insertNew: async (values: NewReportRow): Promise<Report> => (await db.write((q) => ingestStatementsOf(q).insert.execute(values)))[0]!,

    /** Records a new report's `created` activity entry. */
    recordCreated: (e: { projectId: string; reportId: string; actorId: string | null; now: Date }) => db.write(async (q) => void (await ingestStatementsOf(q).activity.execute(e))),

    /** Adds list facets (report-facets.ts: `[kind, value]`) to report `seq`, in one statement; those it has are left. */
    addFacets: (projectId: string, seq: number, facets: [number, string][]) => (facets.length === 0 ? Promise.resolve() : db.write((q) => insertFacets(q, projectId, seq, facets))),

    /** Every report id of the project (deleted ones too) and the screenshot keys they carry: what a project's deletion removes from storage. */
    idsAndScreenshotsOf: async (projectId: string): Promise<{ ids: string[]; screenshotKeys: string[] }> => {
      const rows = await db.read((q) => q.select({ id: reports.id, key: reports.screenshotKey }).from(reports).where(eq(reports.projectId, projectId)))
      return { ids: rows.map((r) => r.id), screenshotKeys: rows.flatMap((r) => (r.key ? [r.key] : [])) }
    },

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

    /** Sets `triaged_at` on those of these reports that have none (the first touch is kept). */
    markTriaged: (ids: string[], now: Date) =>
      db.write(async (q) => void (await q.update(reports).set({ triagedAt: now }).where(and(inArray(reports.id, ids), isNull(reports.triagedAt))))),

    /** Detaches a deleted user from the reports they filed or were assigned, in every project (the reports stay). */
    detachUser: (userId: string) =>
      db.write(async (q) => {
        await q.update(reports).set({ assignedTo: null }).where(eq(reports.assignedTo, userId))
        await q.update(reports).set({ createdBy: null }).where(eq(reports.createdBy, userId))
      }),
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

/** The report a submission joins, as the stacking path reads it (groupingTarget). */
export interface GroupingTarget {
  seq: number
  id: string
  reportNumber: number
  status: Status
  category: Category
  priority: Priority
  sentimentScore: number | null
  sentimentLevel: 'positive' | 'neutral' | 'negative' | null
  versions: string
  resolvedInVersion: string | null
}

/** The ingest path's statements on reports (filing a new one, stacking on one), prepared once per connection: each submission runs them. */
function prepareIngest(q: Query) {
  const facetStatements = new Map<number, ReturnType<typeof facetInsert>>()
  const facetInsert = (n: number) =>
    q
      .insert(reportFacets)
      .values(Array.from({ length: n }, (_, i) => ({ projectId: p('projectId'), kind: p(`k${i}`), value: p(`v${i}`), reportSeq: p('seq') })))
      .onConflictDoNothing()
      .prepare()
  return {
    /** Counts one report against the account's lifetime quota and returns the new total with the plan. */
    chargeReport: q
      .update(accounts)
      .set({ reportsCreated: sql`${accounts.reportsCreated} + 1` })
      .where(eq(accounts.id, p('accountId')))
      .returning({ used: accounts.reportsCreated, plan: accounts.plan })
      .prepare(),
    /** Takes the project's next report number (never repeated or skipped: the counter moves in the inserting transaction). */
    nextNumber: q
      .update(projects)
      .set({
        lastReportNumber: sql`${projects.lastReportNumber} + 1`,
        liveReportCount: sql`${projects.liveReportCount} + 1`,
        firstReportAt: sql`coalesce(${projects.firstReportAt}, ${p('nowMs')})`,
      })
      .where(eq(projects.id, p('projectId')))
      .returning({ number: projects.lastReportNumber })
      .prepare(),
    insert: q
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
        firstSeen: p('at'),
        lastSeen: p('at'),
        level: p('level'),
        handled: sql`${p('handled')}`,
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
    activity: q
      .insert(activity)
      .values({ projectId: p('projectId'), reportId: p('reportId'), actorId: p('actorId'), action: 'created', createdAt: p('now') })
      .prepare(),
    // The partial index of live reports by key, named, and no ORDER BY (its key order is oldest first):
    // left to choose, with ORDER BY seq, SQLite takes the same index yet runs ~5x slower under Bun.
    // A closed or won't-fix report before the answer costs a row read.
    // Named columns (the table is named through the hint, so Drizzle does not know it): none needs decoding.
    target: q
      .select({
        seq: sql<number>`seq`,
        id: sql<string>`id`,
        reportNumber: sql<number>`report_number`,
        status: sql<Status>`status`,
        category: sql<Category>`category`,
        priority: sql<Priority>`priority`,
        sentimentScore: sql<number | null>`sentiment_score`,
        sentimentLevel: sql<GroupingTarget['sentimentLevel']>`sentiment_level`,
        versions: sql<string>`versions`,
        resolvedInVersion: sql<string | null>`resolved_in_version`,
      })
      .from(indexedBy(q, reports, 'reports_live_fingerprint_idx'))
      .where(sql`project_id = ${p('projectId')} AND fingerprint = ${p('fingerprint')} AND deleted_at IS NULL AND status IN ('open', 'in_progress', 'resolved')`)
      // A literal LIMIT: bound, as Drizzle writes a number, Bun's SQLite runs this seek ~5x slower (3 → 15 µs).
      .limit(LITERAL_LIMIT_1)
      .prepare(),
    counted: q
      .update(reports)
      .set({
        occurrenceCount: sql`${reports.occurrenceCount} + 1`,
        playerCount: sql`${reports.playerCount} + ${p('newPlayer')}`,
        // An occurrence dated by its client (ingest/event-time.ts) may be older than the report's latest, or its first.
        lastSeen: sql`CASE WHEN ${reports.lastSeen} IS NULL OR ${p('atMs')} > ${reports.lastSeen} THEN ${p('atMs')} ELSE ${reports.lastSeen} END`,
        firstSeen: sql`CASE WHEN ${reports.firstSeen} IS NULL OR ${p('atMs')} < ${reports.firstSeen} THEN ${p('atMs')} ELSE ${reports.firstSeen} END`,
        level: sql`coalesce(${p('level')}, ${reports.level})`,
        // Unhandled once any occurrence was: a handled one after it does not make the report handled.
        handled: sql`CASE WHEN ${p('handled')} = 0 OR ${reports.handled} = 0 THEN 0 ELSE coalesce(${p('handled')}, ${reports.handled}) END`,
        lastVersion: sql`CASE WHEN ${p('version')} = '' THEN ${reports.lastVersion} ELSE ${p('version')} END`,
        firstVersion: sql`CASE WHEN ${reports.firstVersion} = '' THEN ${p('version')} ELSE ${reports.firstVersion} END`,
        versions: p('versions') as never,
      })
      .where(eq(reports.seq, p('seq')))
      .prepare(),
    /** The insert of `n` facets, prepared on first use (an occurrence adds 0 to 4). */
    addFacets: (n: number) => {
      let st = facetStatements.get(n)
      if (!st) facetStatements.set(n, (st = facetInsert(n)))
      return st
    },
  }
}

const ingestStatementsOf = preparedPerConnection(prepareIngest)

/** Adds `facets` to report `seq` in one statement (prepared per count); those it has are left. */
async function insertFacets(q: Query, projectId: string, seq: number, facets: [number, string][]): Promise<void> {
  if (facets.length === 0) return
  const params: Record<string, string | number> = { projectId, seq }
  facets.forEach(([kind, value], i) => Object.assign(params, { [`k${i}`]: kind, [`v${i}`]: value }))
  await ingestStatementsOf(q).addFacets(facets.length).execute(params)
}
