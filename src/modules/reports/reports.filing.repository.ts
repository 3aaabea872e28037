import { eq, sql } from 'drizzle-orm'
import { indexedBy, preparedPerConnection, type Query, type Seam } from '../../db/client'
import { together } from '../../db/together'
// Report creation's prepared statements (below) charge the account, take the project's next number and
// record the activity in the filing write, in one statement each on the submit path's hot path: they
// name those tables rather than call three repositories per report.
import { accounts } from '../auth/accounts.table'
import { activity } from '../activity/activity.table'
import { projects } from '../projects/projects.table'
import { reportFacets } from './report-facets'
import { reports } from './reports.table'
import type { Category, Priority, Status } from './reports.types'

// Placeholders in column positions pass through the column's encoder (Dates, JSON); inside raw `sql` they do not.
const p = (name: string) => sql.placeholder(name)

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

/**
 * The reports repository's part on the submit path (reports.repository.ts spreads it in): the report a
 * submission joins, one more occurrence of it, or a new report with its number, quota charge, activity
 * and facets, each a statement prepared once per connection.
 */
export function reportFilingRepository({ db }: { db: Seam }) {
  return {
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

    /** Counts one report against the account's lifetime quota (it never goes down); the new total and the plan, or undefined without the account. */
    chargeReport: async (accountId: string): Promise<{ used: number; plan: string } | undefined> =>
      (await db.write((q) => ingestStatementsOf(q).chargeReport.execute({ accountId })))[0],

    /** Takes the project's next report number and counts one more live report (the counter moves in the filing write: numbers never repeat or skip). */
    takeNumber: async (projectId: string, now: Date): Promise<number> =>
      (await db.write((q) => ingestStatementsOf(q).nextNumber.execute({ projectId, nowMs: now.getTime() })))[0]!.number,

    /** Inserts a new report (the values `insertNew` names; `now` its time) and returns it. */
    insertNew: async (values: NewReportRow): Promise<typeof reports.$inferSelect> => (await db.write((q) => ingestStatementsOf(q).insert.execute(values)))[0]!,

    /** Records a new report's `created` activity entry. */
    recordCreated: (e: { projectId: string; reportId: string; actorId: string | null; now: Date }) => db.write(async (q) => void (await ingestStatementsOf(q).activity.execute(e))),

    /** Adds list facets (report-facets.ts: `[kind, value]`) to report `seq`, in one statement; those it has are left. */
    addFacets: (projectId: string, seq: number, facets: [number, string][]) => (facets.length === 0 ? Promise.resolve() : db.write((q) => insertFacets(q, projectId, seq, facets))),
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
      .limit(1)
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
