import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm'
import { preparedPerConnection, type Seam } from '../../db/client'
import { createAccountsRepository } from '../auth/accounts.repository'
import { reportFilingRepository } from './reports.filing.repository'
import { reportSummariesRepository } from './reports.summaries.repository'
import { reports, reportStatusCounts } from './reports.table'

export type Report = typeof reports.$inferSelect
/** Columns an update may set. */
export type ReportChanges = Partial<Omit<typeof reports.$inferInsert, 'id' | 'seq' | 'projectId'>>
/** Reports named by id or by number (within a project). */
export type ReportSelector = { ids: string[] } | { numbers: number[] }

const liveIn = (projectId: string) => and(eq(reports.projectId, projectId), isNull(reports.deletedAt))
const selected = (which: ReportSelector) => ('ids' in which ? inArray(reports.id, which.ids) : inArray(reports.reportNumber, which.numbers))

/** The reports repository over `db`, built once per handle (the ingest path asks for it in every write). */
export const reportsRepositoryOf = preparedPerConnection((db) => createReportsRepository({ db }))

/** Reads and writes of reports, as async functions over the database seam (the list's are in reports.list.repository.ts). */
export function createReportsRepository({ db }: { db: Seam }) {
  return {
    ...reportFilingRepository({ db }),
    ...reportSummariesRepository({ db }),

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

    /** Every report id of the project (deleted ones too) and the screenshot keys they carry: what a project's deletion removes from storage. */
    idsAndScreenshotsOf: async (projectId: string): Promise<{ ids: string[]; screenshotKeys: string[] }> => {
      const rows = await db.read((q) => q.select({ id: reports.id, key: reports.screenshotKey }).from(reports).where(eq(reports.projectId, projectId)))
      return { ids: rows.map((r) => r.id), screenshotKeys: rows.flatMap((r) => (r.key ? [r.key] : [])) }
    },

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

export type { GroupingTarget, NewReportRow } from './reports.filing.repository'
export type { ReportCandidate } from './reports.summaries.repository'
