import { eq, sql } from 'drizzle-orm'
import { type Db, rawSqlite } from '../../db/client'
import { accounts } from '../accounts/accounts.table'
import { activity } from '../activity/activity.table'
import { ADD_FACET_SQL } from './report-facets'
import { reportOccurrences } from '../ingest/ingest.table'
import { projects } from '../projects/projects.table'
import { reports } from './reports.table'

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
    /** A report's first occurrence: the submission it was filed from, with its own copy of the evidence. */
    occurrence: db
      .insert(reportOccurrences)
      .values({
        id: p('id'),
        reportId: p('reportId'),
        projectId: p('projectId'),
        title: p('title'),
        description: p('description'),
        stepsToReproduce: p('stepsToReproduce'),
        expectedBehavior: p('expectedBehavior'),
        actualBehavior: p('actualBehavior'),
        source: p('source'),
        errorType: p('errorType'),
        deviceInfo: p('deviceInfo'),
        osInfo: p('osInfo'),
        platform: p('platform'),
        gameVersion: p('gameVersion'),
        playerId: p('playerId'),
        reporterName: p('reporterName'),
        reporterEmail: p('reporterEmail'),
        // Bound as text (not through the JSON column's encoder, which would store SQL NULL as 'null').
        metadata: sql`${p('metadata')}`,
        screenshotKey: p('screenshotKey'),
        client: p('client'),
        eventId: p('eventId'),
        createdAt: p('now'),
      })
      .prepare(),
    /** Counts a player among a report's players; changes nothing when they were already counted. */
    addPlayer: rawSqlite(db).prepare<unknown, [number, string]>('INSERT OR IGNORE INTO report_players (report_seq, player_id) VALUES (?, ?)'),
    /** A version, platform, player or screenshot of the first occurrence, for the list's filters (report-facets.ts). */
    addFacet: rawSqlite(db).prepare<unknown, [string, number, string, number]>(ADD_FACET_SQL),
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
