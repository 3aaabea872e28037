import { and, asc, count, countDistinct, eq, gte, inArray, lt, min, type SQL, sql, sum } from 'drizzle-orm'
import { type DbOrTx, rowsOf, type Seam } from '../../db/client'
import { chunks } from '../../lib/chunks'
import { eventNames, events, perfSnapshots, playSessions, sessionReplays } from './sdk.table'

/** A replay past retention: its row goes, then its file. */
export interface ExpiredReplay {
  id: string
  fileKey: string
  fileSize: number
  projectId: string
}

/** The earliest of a time column, as epoch ms (the engines answer a raw aggregate as a number or a string). */
const msOf = (v: unknown): number | null => (v == null ? null : Number(v))

/**
 * The earliest of `column` over the projects, through its (project_id, time) index once per project:
 * no scan of the table. The project ids drive it as a VALUES list (its column is `column1` on both engines).
 */
const oldestPerProject = async (db: Seam, projectIds: string[], oldestOf: (projectId: SQL) => SQL): Promise<number | null> => {
  let oldest: number | null = null
  for (const ids of chunks(projectIds)) {
    const list = sql.join(
      ids.map((id) => sql`(${id})`),
      sql`, `,
    )
    const [row] = await db.read((q) => rowsOf<{ t: unknown }>(q, sql`SELECT min((${oldestOf(sql`v.column1`)})) AS t FROM (VALUES ${list}) AS v`))
    const t = msOf(row?.t)
    if (t !== null && (oldest === null || t < oldest)) oldest = t
  }
  return oldest
}

/**
 * The SDK's raw telemetry as retention sees it: how old it is, its counts per day for the rollups, and
 * bounded deletes of what is past retention (at most `limit` rows, oldest first, so a caller sizes its
 * batches; each answers how many went).
 */
export function createSdkRetentionRepository({ db }: { db: Seam }) {
  /** Runs one bounded delete (it returns a row per deleted row) in a write of its own; returns how many went. */
  const deleteOldest = async (remove: (q: DbOrTx) => Promise<unknown[]>): Promise<number> => (await db.write(remove)).length

  return {
    /** When the oldest raw event sent at or after `since` (epoch ms) was sent (null: none), through the (name_id, created_at) index per name: no scan of the table. */
    oldestEventAt: async (since = 0): Promise<number | null> => {
      const [row] = await db.read((q) =>
        q.select({ t: sql`min((${q.select({ t: min(events.createdAt) }).from(events).where(and(eq(events.nameId, eventNames.id), gte(events.createdAt, since)))}))` }).from(eventNames),
      )
      return msOf(row?.t)
    },

    /** When the oldest kept play session of these projects started at or after `since` started (null: none). */
    oldestSessionAt: (projectIds: string[], since = new Date(0)) =>
      oldestPerProject(db, projectIds, (id) => sql`SELECT min(${playSessions.startedAt}) FROM ${playSessions} WHERE ${playSessions.projectId} = ${id} AND ${gte(playSessions.startedAt, since)}`),

    /** When the oldest kept perf snapshot of these projects was taken (null: none). */
    oldestPerfAt: (projectIds: string[]) => oldestPerProject(db, projectIds, (id) => sql`SELECT min(${perfSnapshots.createdAt}) FROM ${perfSnapshots} WHERE ${perfSnapshots.projectId} = ${id}`),

    /** When the oldest kept replay was stored (null: none). */
    oldestReplayAt: async (): Promise<number | null> => {
      const [row] = await db.read((q) => q.select({ t: min(sessionReplays.createdAt) }).from(sessionReplays))
      return row?.t?.getTime() ?? null
    },

    /** Events sent in [from, to) per project and name, with their distinct sessions. */
    eventsBetween: (from: Date, to: Date) =>
      db.read((q) =>
        q
          .select({ projectId: eventNames.projectId, eventName: eventNames.name, count: count(), sessions: countDistinct(events.sessionToken) })
          .from(eventNames)
          .innerJoin(events, and(eq(events.nameId, eventNames.id), gte(events.createdAt, from.getTime()), lt(events.createdAt, to.getTime())))
          .groupBy(eventNames.id),
      ),

    /** Play sessions of these projects started in [from, to) per project, game version, platform and environment (a (project_id, started_at) index range each). */
    sessionsBetween: async (projectIds: string[], from: Date, to: Date) => {
      const out = []
      for (const ids of chunks(projectIds)) {
        const rows = await db.read((q) =>
          q
            .select({
              projectId: playSessions.projectId,
              gameVersion: playSessions.gameVersion,
              platform: playSessions.platform,
              environment: playSessions.environment,
              started: count(),
              ended: count(playSessions.endedAt),
              crashed: sum(playSessions.crashed),
              players: countDistinct(playSessions.playerId),
              durationSec: sum(playSessions.durationSec),
            })
            .from(playSessions)
            .where(and(inArray(playSessions.projectId, ids), gte(playSessions.startedAt, from), lt(playSessions.startedAt, to)))
            .groupBy(playSessions.projectId, playSessions.gameVersion, playSessions.platform, playSessions.environment),
        )
        out.push(...rows.map((r) => ({ ...r, crashed: Number(r.crashed ?? 0), durationSec: Number(r.durationSec ?? 0) })))
      }
      return out
    },

    /** Ids of every event name (the raw events are deleted name by name, along their index). */
    allEventNameIds: async (): Promise<number[]> => (await db.read((q) => q.select({ id: eventNames.id }).from(eventNames))).map((r) => r.id),

    /** Deletes up to `limit` of the name's events sent before `before`, oldest first. */
    deleteEvents: (nameId: number, before: Date, limit: number) =>
      deleteOldest((q) =>
        q
          .delete(events)
          .where(inArray(events.id, q.select({ id: events.id }).from(events).where(and(eq(events.nameId, nameId), lt(events.createdAt, before.getTime()))).orderBy(asc(events.createdAt)).limit(limit)))
          .returning({ id: events.id }),
      ),

    /** Deletes up to `limit` of the project's perf snapshots taken before `before`, oldest first. */
    deletePerfSnapshots: (projectId: string, before: Date, limit: number) =>
      deleteOldest((q) =>
        q
          .delete(perfSnapshots)
          .where(
            inArray(
              perfSnapshots.id,
              q.select({ id: perfSnapshots.id }).from(perfSnapshots).where(and(eq(perfSnapshots.projectId, projectId), lt(perfSnapshots.createdAt, before))).orderBy(asc(perfSnapshots.createdAt)).limit(limit),
            ),
          )
          .returning({ id: perfSnapshots.id }),
      ),

    /** Deletes up to `limit` of the project's play sessions started before `before`, oldest first. */
    deleteSessions: (projectId: string, before: Date, limit: number) =>
      deleteOldest((q) =>
        q
          .delete(playSessions)
          .where(
            inArray(
              playSessions.id,
              q.select({ id: playSessions.id }).from(playSessions).where(and(eq(playSessions.projectId, projectId), lt(playSessions.startedAt, before))).orderBy(asc(playSessions.startedAt)).limit(limit),
            ),
          )
          .returning({ id: playSessions.id }),
      ),

    /** Up to `limit` replays stored before `before`. */
    expiredReplays: (before: Date, limit: number): Promise<ExpiredReplay[]> =>
      db.read((q) =>
        q
          .select({ id: sessionReplays.id, fileKey: sessionReplays.fileKey, fileSize: sessionReplays.fileSize, projectId: sessionReplays.projectId })
          .from(sessionReplays)
          .where(lt(sessionReplays.createdAt, before))
          .limit(limit),
      ),

    /** Deletes these replays' rows. */
    deleteReplays: (ids: string[]) => db.write((q) => q.delete(sessionReplays).where(inArray(sessionReplays.id, ids))),
  }
}
