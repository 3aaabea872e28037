import { gt, inArray, sql } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { eventNames, events, perfSnapshots, playSessions } from '../sdk/sdk.table'

/** An occurrence as the rollup reads it, with what its report says about it. */
export interface OccurrenceRow {
  seq: number
  projectId: string
  reportSeq: number | null
  reportNumber: number
  title: string
  description: string
  category: string
  errorType: string
  fingerprint: string
  label: string
  platform: string
  gameVersion: string
  playerId: string | null
  createdAt: number
  /** 1 when it filed its report (its report's oldest occurrence). */
  first: number
}

/**
 * What the analytics rollup counts, read from other domains' rows (ingest's occurrences with their
 * reports, the SDK's sessions, performance snapshots and events) by cursor, as async functions over
 * the database seam: kept apart so each read can move to its owner's repository once it has one.
 */
export function createSourcesRepository({ db }: { db: Seam }) {
  return {
    /**
     * Up to `limit` occurrences after `after` (by seq) with their report's number, title, fingerprint,
     * label and category, and whether each filed its report. Joins the ingest and reports tables in one
     * statement: the rollup reads them in the same step that counts them.
     */
    occurrencesAfter: (after: number, limit: number) =>
      db.read((q) =>
        q.all<OccurrenceRow>(sql`
      SELECT o.seq, o.project_id AS projectId, r.seq AS reportSeq, r.report_number AS reportNumber, r.title, o.description, r.category,
        CASE WHEN o.error_type <> '' THEN o.error_type ELSE r.error_type END AS errorType, r.fingerprint, r.grouping_label AS label,
        o.platform, o.game_version AS gameVersion, o.player_id AS playerId, o.created_at AS createdAt,
        NOT EXISTS (SELECT 1 FROM report_occurrences e WHERE e.report_id = o.report_id AND e.seq < o.seq) AS first
      FROM report_occurrences o LEFT JOIN reports r ON r.id = o.report_id
      WHERE o.seq > ${after} ORDER BY o.seq LIMIT ${limit}`),
      ),

    /** Up to `limit` sessions after `after` (by rowid), with what the version rollup needs. */
    sessionsAfter: (after: number, limit: number) =>
      db.read((q) =>
        q
          .select({ rowid: sql<number>`${playSessions}.rowid`, projectId: playSessions.projectId, gameVersion: playSessions.gameVersion, playerId: playSessions.playerId, at: playSessions.startedAt })
          .from(playSessions)
          .where(sql`${playSessions}.rowid > ${after}`)
          .orderBy(sql`${playSessions}.rowid`)
          .limit(limit),
      ),

    /** Up to `limit` performance snapshots after `after` (by rowid), with their report's id (null for a scene load). */
    perfAfter: (after: number, limit: number) =>
      db.read((q) =>
        q
          .select({
            rowid: sql<number>`${perfSnapshots}.rowid`,
            projectId: perfSnapshots.projectId,
            reportId: perfSnapshots.reportId,
            fps: perfSnapshots.fps,
            frameTimeMs: perfSnapshots.frameTimeMs,
            memoryUsedMb: perfSnapshots.memoryUsedMb,
            loadTimeSec: perfSnapshots.loadTimeSec,
          })
          .from(perfSnapshots)
          .where(sql`${perfSnapshots}.rowid > ${after}`)
          .orderBy(sql`${perfSnapshots}.rowid`)
          .limit(limit),
      ),

    /** The id before the first event stored at or after `from` (ms), or the newest id when there is none. */
    eventIdBefore: (from: number) =>
      db.read(async (q) => {
        // Per name, a range of the (name_id, created_at) index, which carries the id.
        const [first] = await q.all<{ id: number | null }>(sql`SELECT min((SELECT min(id) FROM events WHERE name_id = n.id AND created_at >= ${from})) AS id FROM event_names n`)
        if (first?.id != null) return first.id - 1
        const [last] = await q.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)
        return last?.id ?? 0
      }),

    /** The newest event id, 0 without events. */
    newestEventId: async (): Promise<number> => (await db.read((q) => q.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM events`)))[0]?.id ?? 0,

    /** Up to `limit` events after id `after`, by their key alone (joined to the names, the planner walked each name's whole index). */
    eventsAfter: (after: number, limit: number) =>
      db.read((q) => q.select({ id: events.id, nameId: events.nameId, createdAt: events.createdAt, token: events.sessionToken }).from(events).where(gt(events.id, after)).orderBy(events.id).limit(limit)),

    /** The event names of these ids, by id. */
    eventNamesOf: async (ids: number[]) => {
      if (!ids.length) return new Map<number, { id: number; projectId: string; name: string }>()
      const rows = await db.read((q) => q.select({ id: eventNames.id, projectId: eventNames.projectId, name: eventNames.name }).from(eventNames).where(inArray(eventNames.id, ids)))
      return new Map(rows.map((n) => [n.id, n]))
    },
  }
}
