import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, max, min, ne, sql } from 'drizzle-orm'
import { indexedBy, preparedPerConnection, type Seam } from '../../db/client'
import { chunks } from '../../lib/chunks'
import { ingestFilingRepository } from './ingest.filing.repository'
import { ingestedEventIds, occurrenceTags, reportOccurrences } from './ingest.table'
import { reportPlayers } from './report-players'
import { MAX_VERSIONS } from '../reports/report-versions'
import type { FirstOccurrence } from '../reports/report-additions'

export type Occurrence = typeof reportOccurrences.$inferSelect

/**
 * An occurrence as the ingest path writes it: `metadata` is JSON text (or null), `now` its time. One
 * shape with the first occurrence filing hands over (reports/report-additions.ts), which ingest stores.
 */
export type NewOccurrence = FirstOccurrence

const ofReport = (reportId: string) => eq(reportOccurrences.reportId, reportId)

/** The ingest repository over `db`, built once per handle (every submission's write asks for it). */
export const ingestRepositoryOf = preparedPerConnection((db) => createIngestRepository({ db }))

/** Every read and write of the ingest tables (occurrences, event ids, report players, open title words), as async functions over the database seam. */
export function createIngestRepository({ db }: { db: Seam }) {
  return {
    ...ingestFilingRepository({ db }),

    /** How many occurrences a report has. */
    countOf: async (reportId: string): Promise<number> => (await db.read((q) => q.select({ n: count() }).from(reportOccurrences).where(ofReport(reportId))))[0]!.n,

    /** A page of a report's occurrences, newest or oldest first. */
    page: (reportId: string, order: 'newest' | 'oldest', limit: number, offset: number) =>
      db.read((q) =>
        q
          .select()
          .from(reportOccurrences)
          .where(ofReport(reportId))
          .orderBy(order === 'oldest' ? asc(reportOccurrences.seq) : desc(reportOccurrences.seq))
          .limit(limit)
          .offset(offset),
      ),

    /** The occurrences of a report that carry a screenshot, newest first: the first `limit`, and how many there are. */
    withScreenshots: async (reportId: string, limit: number) => {
      const has = and(ofReport(reportId), isNotNull(reportOccurrences.screenshotKey))
      const [rows, [total]] = await Promise.all([
        db.read((q) => q.select().from(reportOccurrences).where(has).orderBy(desc(reportOccurrences.seq)).limit(limit)),
        db.read((q) => q.select({ n: count() }).from(reportOccurrences).where(has)),
      ])
      return { rows, total: total!.n }
    },

    /** These occurrences of a report (those of other reports left out), oldest first. */
    ofReportByIds: (reportId: string, ids: string[]) =>
      db.read((q) =>
        q
          .select()
          .from(reportOccurrences)
          .where(and(ofReport(reportId), inArray(reportOccurrences.id, ids)))
          .orderBy(reportOccurrences.seq),
      ),

    /** Moves occurrences to another report. */
    moveTo: (ids: string[], reportId: string) => db.write((q) => q.update(reportOccurrences).set({ reportId }).where(inArray(reportOccurrences.id, ids))),

    /** Moves every occurrence of the `from` reports to report `to` (merge). */
    moveAllTo: (fromIds: string[], to: string) => db.write((q) => q.update(reportOccurrences).set({ reportId: to }).where(inArray(reportOccurrences.reportId, fromIds))),

    /** How a report's occurrences spread: one row per (version, platform) pair with its count and first seq. */
    versionPlatformPairs: (reportId: string) =>
      db.read((q) =>
        q
          // Through (report_id, seq), as before the event-time index (report_id, created_at) came: SQLite
          // took either for this range, and the plan of a hot read must not be left to chance. (A hinted
          // table is plain SQL to Drizzle: the columns are named as SQL too.)
          .select({ version: sql<string>`game_version`, platform: sql<string>`platform`, n: sql<number>`count(*)`.mapWith(Number), first: sql<number>`min(seq)`.mapWith(Number) })
          .from(indexedBy(q, reportOccurrences, 'report_occurrences_report_idx'))
          .where(sql`report_id = ${reportId}`)
          .groupBy(sql`game_version, platform`),
      ),

    /** How many of a report's occurrences carry each tag value: one GROUP BY over its occurrences' tag rows. */
    tagCounts: async (reportId: string) =>
      (
        await db.read((q) =>
          q
            .select({ key: occurrenceTags.key, value: occurrenceTags.value, n: count() })
            .from(occurrenceTags)
            .innerJoin(reportOccurrences, eq(reportOccurrences.id, occurrenceTags.occurrenceId))
            .where(ofReport(reportId))
            .groupBy(occurrenceTags.key, occurrenceTags.value),
        )
      ).map((r) => ({ key: r.key, value: r.value, n: Number(r.n) })),

    /** The occurrence a client event id (Sentry's `event_id`) names in the project, or undefined. */
    ofEvent: async (projectId: string, eventId: string): Promise<{ id: string; reportId: string } | undefined> => {
      const [row] = await db.read((q) =>
        q
          .select({ id: reportOccurrences.id, reportId: reportOccurrences.reportId })
          .from(reportOccurrences)
          .where(and(eq(reportOccurrences.projectId, projectId), eq(reportOccurrences.eventId, eventId)))
          .limit(1),
      )
      return row
    },

    /**
     * What a report's counts are made of, from its occurrences: how many, its distinct players, first and
     * last seen, first and last known version, and its versions most recently seen first (at most MAX_VERSIONS).
     */
    summary: (report: { id: string; seq: number }) =>
      db.read(async (q) => {
        const [all] = await q.select({ n: count(), first: min(reportOccurrences.createdAt), last: max(reportOccurrences.createdAt) }).from(reportOccurrences).where(ofReport(report.id))
        const [players] = await q.select({ n: count() }).from(reportPlayers).where(eq(reportPlayers.reportSeq, report.seq))
        const withVersion = and(ofReport(report.id), ne(reportOccurrences.gameVersion, ''))
        const versions = await q
          .select({ version: reportOccurrences.gameVersion, firstSeq: min(reportOccurrences.seq) })
          .from(reportOccurrences)
          .where(withVersion)
          .groupBy(reportOccurrences.gameVersion)
          .orderBy(desc(max(reportOccurrences.seq)))
        return {
          occurrenceCount: all!.n,
          playerCount: players!.n,
          firstSeen: all!.first,
          lastSeen: all!.last,
          // The first known version is the one whose first occurrence came first; the last is the one seen last.
          firstVersion: versions.reduce<{ version: string; firstSeq: number | null } | undefined>((a, v) => (!a || (v.firstSeq ?? 0) < (a.firstSeq ?? 0) ? v : a), undefined)?.version ?? '',
          lastVersion: versions[0]?.version ?? '',
          versions: JSON.stringify(versions.slice(0, MAX_VERSIONS).map((v) => v.version)),
        }
      }),

    /** Rebuilds report `seq`'s distinct players from its occurrences (after split or merge moved some). */
    recountPlayers: (report: { id: string; seq: number }) =>
      db.write(async (q) => {
        await q.delete(reportPlayers).where(eq(reportPlayers.reportSeq, report.seq))
        await q
          .insert(reportPlayers)
          .select(
            q
              .selectDistinct({ reportSeq: sql<number>`${report.seq}`.as('report_seq'), playerId: sql<string>`${reportOccurrences.playerId}`.as('player_id') })
              .from(reportOccurrences)
              .where(and(ofReport(report.id), isNotNull(reportOccurrences.playerId), ne(reportOccurrences.playerId, ''))),
          )
          .onConflictDoNothing()
      }),

    /**
     * The project's crashes since `since` whose minidump metadata lists a module with this debug id
     * (upper-case hex, as the dump parser writes it), newest first, at most `limit`: the dumps that
     * symbols uploaded later can name (debug-files' re-symbolication). Over the project-and-time index.
     */
    crashesNamingModule: (projectId: string, debugId: string, since: Date, limit: number) =>
      db.read((q) =>
        q
          .select({ id: reportOccurrences.id, reportId: reportOccurrences.reportId, createdAt: reportOccurrences.createdAt })
          .from(reportOccurrences)
          .where(
            and(
              eq(reportOccurrences.projectId, projectId),
              gte(reportOccurrences.createdAt, since),
              eq(reportOccurrences.crash, true),
              // The metadata is JSON text on both engines; bound as a plain value, not through the column's JSON encoder.
              sql`${reportOccurrences.metadata} LIKE ${`%"debug_id":"${debugId}"%`}`,
            ),
          )
          .orderBy(desc(reportOccurrences.createdAt))
          .limit(limit),
      ),

    /** Whether any occurrence of the project carries a client's event id (only Sentry's routes give one: a partial index). */
    hasClientEvent: async (projectId: string): Promise<boolean> =>
      (
        await db.read((q) =>
          q
            .select({ one: reportOccurrences.seq })
            .from(reportOccurrences)
            .where(and(eq(reportOccurrences.projectId, projectId), isNotNull(reportOccurrences.eventId)))
            .limit(1),
        )
      ).length > 0,

    /** The screenshot keys of the occurrences of the `reportIds` reports (a project's deletion). */
    screenshotKeysOf: async (reportIds: string[]): Promise<string[]> => {
      const keys: string[] = []
      for (const ids of chunks(reportIds))
        keys.push(
          ...(await db.read((q) => q.select({ key: reportOccurrences.screenshotKey }).from(reportOccurrences).where(and(inArray(reportOccurrences.reportId, ids), isNotNull(reportOccurrences.screenshotKey))))).map((r) => r.key!),
        )
      return keys
    },

    /** Deletes up to `limit` client event ids taken in before `before`, oldest first; how many went (a retry older than the window is a new event again). */
    deleteEventIdsBefore: async (before: Date, limit: number): Promise<number> =>
      (
        await db.write((q) => {
          const oldest = q
            .select({ projectId: ingestedEventIds.projectId, eventId: ingestedEventIds.eventId })
            .from(ingestedEventIds)
            .where(lt(ingestedEventIds.createdAt, before))
            .orderBy(asc(ingestedEventIds.createdAt))
            .limit(limit)
          return q
            .delete(ingestedEventIds)
            .where(sql`(${ingestedEventIds.projectId}, ${ingestedEventIds.eventId}) IN (${oldest})`)
            .returning({ id: ingestedEventIds.eventId })
        })
      ).length,
  }
}

export type IngestRepository = ReturnType<typeof createIngestRepository>
