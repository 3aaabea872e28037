import { and, gt, inArray, sql } from 'drizzle-orm'
import { rowsOf, type Seam } from '../../db/client'
import { settledKeys } from '../../db/settled-keys'
import { eventNames, events, perfSnapshots, playSessions } from './sdk.table'

/**
 * The SDK's sessions, performance snapshots and events read in storage order after a cursor (rowid or
 * id), for the analytics rollup that counts them, as async functions over the database seam. Each read
 * stops at the rows no write still in progress can precede (settled-keys.ts).
 */
export function createSdkCursorsRepository({ db }: { db: Seam }) {
  return {
    /** Up to `limit` sessions after `after` (by rowid), with what the version rollup needs. */
    sessionsAfter: (after: number, limit: number) =>
      db.read(async (q) => {
        const rowid = sql`${playSessions}.rowid`
        const settled = await settledKeys(q, { table: 'play_sessions', column: 'rowid', as: rowid })
        return q
          .select({ rowid: sql<number>`${playSessions}.rowid`, projectId: playSessions.projectId, gameVersion: playSessions.gameVersion, playerId: playSessions.playerId, at: playSessions.startedAt })
          .from(playSessions)
          .where(and(sql`${rowid} > ${after}`, settled))
          .orderBy(rowid)
          .limit(limit)
      }),

    /** Up to `limit` performance snapshots after `after` (by rowid), with their report's id (null for a scene load). */
    perfAfter: (after: number, limit: number) =>
      db.read(async (q) => {
        const rowid = sql`${perfSnapshots}.rowid`
        const settled = await settledKeys(q, { table: 'perf_snapshots', column: 'rowid', as: rowid })
        return q
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
          .where(and(sql`${rowid} > ${after}`, settled))
          .orderBy(rowid)
          .limit(limit)
      }),

    /** The id before the first event stored at or after `from` (ms), or the newest id when there is none. */
    eventIdBefore: (from: number) =>
      db.read(async (q) => {
        // Per name, a range of the (name_id, created_at) index, which carries the id.
        const [first] = await rowsOf<{ id: number | null }>(q, sql`SELECT min((SELECT min(id) FROM events WHERE name_id = n.id AND created_at >= ${from})) AS id FROM event_names n`)
        if (first?.id != null) return Number(first.id) - 1
        const [last] = await rowsOf<{ id: number | null }>(q, sql`SELECT max(id) AS id FROM events`)
        return Number(last?.id ?? 0)
      }),

    /** The newest event id, 0 without events. */
    newestEventId: async (): Promise<number> => Number((await db.read((q) => rowsOf<{ id: number | null }>(q, sql`SELECT max(id) AS id FROM events`)))[0]?.id ?? 0),

    /** Up to `limit` events after id `after`, by their key alone (joined to the names, the planner walked each name's whole index). */
    eventsAfter: (after: number, limit: number) =>
      db.read(async (q) => {
        const settled = await settledKeys(q, { table: 'events', column: 'id', as: events.id })
        return q.select({ id: events.id, nameId: events.nameId, createdAt: events.createdAt, token: events.sessionToken }).from(events).where(and(gt(events.id, after), settled)).orderBy(events.id).limit(limit)
      }),

    /** The event names of these ids, by id. */
    eventNamesOf: async (ids: number[]) => {
      if (!ids.length) return new Map<number, { id: number; projectId: string; name: string }>()
      const rows = await db.read((q) => q.select({ id: eventNames.id, projectId: eventNames.projectId, name: eventNames.name }).from(eventNames).where(inArray(eventNames.id, ids)))
      return new Map(rows.map((n) => [n.id, n]))
    },
  }
}
