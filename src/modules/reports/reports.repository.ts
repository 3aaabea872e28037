import { and, eq, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm'
import type { Db, Query, Seam } from '../../db/client'
import { accounts } from '../accounts/accounts.table'
import { activity } from '../activity/activity.table'
import { projects } from '../projects/projects.table'
import { reportFacets } from './report-facets'
import { type Category, type Priority, reports, type Status } from './reports.table'

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
    countOccurrence: (o: { projectId: string; seq: number; newPlayer: boolean; now: Date; version: string; versions: string; facets: [number, string][] }) =>
      db.write(async (q) => {
        const st = ingestStatementsOf(q)
        await st.counted.execute({ seq: o.seq, newPlayer: o.newPlayer ? 1 : 0, now: o.now, version: o.version, versions: o.versions })
        if (o.facets.length === 0) return
        const params: Record<string, string | number> = { projectId: o.projectId, seq: o.seq }
        o.facets.forEach(([kind, value], i) => Object.assign(params, { [`k${i}`]: kind, [`v${i}`]: value }))
        await st.addFacets(o.facets.length).execute(params)
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
  }
}

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

/** The ingest path's statements on reports, prepared once per connection (each submission runs them). */
function prepareIngest(q: Query) {
  const facetStatements = new Map<number, ReturnType<typeof facetInsert>>()
  const facetInsert = (n: number) =>
    q
      .insert(reportFacets)
      .values(Array.from({ length: n }, (_, i) => ({ projectId: p('projectId'), kind: p(`k${i}`), value: p(`v${i}`), reportSeq: p('seq') })))
      .onConflictDoNothing()
      .prepare()
  return {
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
      .from(sql`${reports} INDEXED BY reports_live_fingerprint_idx`)
      .where(sql`project_id = ${p('projectId')} AND fingerprint = ${p('fingerprint')} AND deleted_at IS NULL AND status IN ('open', 'in_progress', 'resolved')`)
      // A literal LIMIT: bound, as Drizzle writes a number, Bun's SQLite runs this seek ~5x slower (3 → 15 µs).
      .limit(sql.raw('1') as unknown as number)
      .prepare(),
    counted: q
      .update(reports)
      .set({
        occurrenceCount: sql`${reports.occurrenceCount} + 1`,
        playerCount: sql`${reports.playerCount} + ${p('newPlayer')}`,
        lastSeen: p('now') as never,
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

const ingestStatements = new WeakMap<Query, ReturnType<typeof prepareIngest>>()

function ingestStatementsOf(q: Query) {
  let st = ingestStatements.get(q)
  if (!st) ingestStatements.set(q, (st = prepareIngest(q)))
  return st
}
