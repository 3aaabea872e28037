import { and, asc, count, countDistinct, eq, gte, inArray, lt, min, sql, sum, type SQL } from 'drizzle-orm'
import type { DbOrTx, Seam } from '../../db/client'
import { files } from '../../files/files.table'
import { accounts } from '../accounts/accounts.table'
import { ingestedEventIds } from '../ingest/ingest.table'
import { projects } from '../projects/projects.table'
import { eventNames, events, perfSnapshots, playSessions, sessionReplays } from '../sdk/sdk.table'
import { telemetryDailyEvents, telemetryDailySessions, telemetryRollupState } from './retention.table'

export type Rollup = 'events' | 'sessions'
export type DailyEvents = Omit<typeof telemetryDailyEvents.$inferInsert, 'day'>
export type DailySessions = Omit<typeof telemetryDailySessions.$inferInsert, 'day'>
/** A replay past retention: its row goes, then its file. */
export interface ExpiredReplay {
  id: string
  fileKey: string
  fileSize: number
  projectId: string
}

/** Rows per INSERT when a day's rollup is written, well under any engine's bound-parameter limit. */
const INSERT_CHUNK = 500

/** The earliest of a time column, as epoch ms (the engines answer a raw aggregate as a number or a string). */
const msOf = (v: unknown): number | null => (v == null ? null : Number(v))

/**
 * Every read and write retention makes, over the seam: the daily rollups (its own tables), and the
 * deletes of raw telemetry past retention in other domains' tables (sdk, ingest), which no other
 * domain does. Deletes take at most `limit` rows, oldest first, so a caller sizes its batches.
 */
export function createRetentionRepository({ db }: { db: Seam }) {
  /** Runs one bounded delete (it returns a row per deleted row) in a write of its own; returns how many went. */
  const deleteOldest = async (remove: (q: DbOrTx) => Promise<unknown[]>): Promise<number> => (await db.write(remove)).length

  return {
    /** The last day a rollup has done, or null before its first run. */
    rolledUpThrough: async (rollup: Rollup): Promise<string | null> => {
      const [row] = await db.read((q) => q.select({ day: telemetryRollupState.throughDay }).from(telemetryRollupState).where(eq(telemetryRollupState.name, rollup)).limit(1))
      return row?.day ?? null
    },

    /** Records how far a rollup has gone. */
    setRolledUpThrough: (rollup: Rollup, day: string) => db.write((q) => setThrough(q, rollup, day)),

    /** When the oldest raw event was sent (null: none), through the (name_id, created_at) index per name: no scan of the table. */
    oldestEventAt: async (): Promise<number | null> => {
      const [row] = await db.read((q) =>
        q.select({ t: sql`min((${q.select({ t: min(events.createdAt) }).from(events).where(eq(events.nameId, eventNames.id))}))` }).from(eventNames),
      )
      return msOf(row?.t)
    },

    /** When the oldest kept play session started (null: none), through the (project_id, started_at) index per project. */
    oldestSessionAt: async (): Promise<number | null> => {
      const [row] = await db.read((q) =>
        q.select({ t: sql`min((${q.select({ t: min(playSessions.startedAt) }).from(playSessions).where(eq(playSessions.projectId, projects.id))}))` }).from(projects),
      )
      return msOf(row?.t)
    },

    /** When the oldest kept perf snapshot was taken (null: none), through the (project_id, created_at) index per project. */
    oldestPerfAt: async (): Promise<number | null> => {
      const [row] = await db.read((q) =>
        q.select({ t: sql`min((${q.select({ t: min(perfSnapshots.createdAt) }).from(perfSnapshots).where(eq(perfSnapshots.projectId, projects.id))}))` }).from(projects),
      )
      return msOf(row?.t)
    },

    /** When the oldest kept replay was stored (null: none). */
    oldestReplayAt: async (): Promise<number | null> => {
      const [row] = await db.read((q) => q.select({ t: min(sessionReplays.createdAt) }).from(sessionReplays))
      return row?.t?.getTime() ?? null
    },

    /** Events sent in [from, to) per project and name, with their distinct sessions. */
    eventsBetween: (from: Date, to: Date): Promise<DailyEvents[]> =>
      db.read((q) =>
        q
          .select({ projectId: eventNames.projectId, eventName: eventNames.name, count: count(), sessions: countDistinct(events.sessionToken) })
          .from(eventNames)
          .innerJoin(events, and(eq(events.nameId, eventNames.id), gte(events.createdAt, from.getTime()), lt(events.createdAt, to.getTime())))
          .groupBy(eventNames.id),
      ),

    /** Play sessions started in [from, to) per project, game version and platform. */
    sessionsBetween: async (from: Date, to: Date): Promise<DailySessions[]> => {
      const rows = await db.read((q) =>
        q
          .select({
            projectId: playSessions.projectId,
            gameVersion: playSessions.gameVersion,
            platform: playSessions.platform,
            started: count(),
            ended: count(playSessions.endedAt),
            crashed: sum(playSessions.crashed),
            players: countDistinct(playSessions.playerId),
            durationSec: sum(playSessions.durationSec),
          })
          .from(projects)
          .innerJoin(playSessions, and(eq(playSessions.projectId, projects.id), gte(playSessions.startedAt, from), lt(playSessions.startedAt, to)))
          .groupBy(playSessions.projectId, playSessions.gameVersion, playSessions.platform),
      )
      return rows.map((r) => ({ ...r, crashed: Number(r.crashed ?? 0), durationSec: Number(r.durationSec ?? 0) }))
    },

    /** Replaces a day's event rollup with `rows` and moves the watermark to `through`, in one write. */
    replaceEventsDay: (day: string, rows: DailyEvents[], through: string) =>
      db.write(async (q) => {
        await q.delete(telemetryDailyEvents).where(eq(telemetryDailyEvents.day, day))
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) await q.insert(telemetryDailyEvents).values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, day })))
        await setThrough(q, 'events', through)
      }),

    /** Replaces a day's session rollup with `rows` and moves the watermark to `through`, in one write. */
    replaceSessionsDay: (day: string, rows: DailySessions[], through: string) =>
      db.write(async (q) => {
        await q.delete(telemetryDailySessions).where(eq(telemetryDailySessions.day, day))
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) await q.insert(telemetryDailySessions).values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, day })))
        await setThrough(q, 'sessions', through)
      }),

    /** Ids of every event name (the raw events are deleted name by name, along their index). */
    eventNameIds: async (): Promise<number[]> => (await db.read((q) => q.select({ id: eventNames.id }).from(eventNames))).map((r) => r.id),

    /** Ids of every project (perf snapshots and sessions are deleted project by project, along their index). */
    projectIds: async (): Promise<string[]> => (await db.read((q) => q.select({ id: projects.id }).from(projects))).map((r) => r.id),

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

    /** Deletes up to `limit` client event ids taken in before `before` (ingest.table.ts): a retry older than the window is a new event again. */
    deleteEventIds: (before: Date, limit: number) =>
      deleteOldest((q) => {
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
      }),

    /** Up to `limit` replays stored before `before`. */
    expiredReplays: (before: Date, limit: number): Promise<ExpiredReplay[]> =>
      db.read((q) =>
        q
          .select({ id: sessionReplays.id, fileKey: sessionReplays.fileKey, fileSize: sessionReplays.fileSize, projectId: sessionReplays.projectId })
          .from(sessionReplays)
          .where(lt(sessionReplays.createdAt, before))
          .limit(limit),
      ),

    /** Deletes these replays' rows and takes their bytes off their accounts' stored-bytes counters (a null counter stays null). */
    deleteReplays: (replays: ExpiredReplay[]) =>
      db.write(async (q) => {
        if (!replays.length) return
        await q.delete(sessionReplays).where(inArray(sessionReplays.id, replays.map((r) => r.id)))
        const bytesByProject = new Map<string, number>()
        for (const r of replays) bytesByProject.set(r.projectId, (bytesByProject.get(r.projectId) ?? 0) + r.fileSize)
        for (const [projectId, bytes] of bytesByProject) {
          await q.update(accounts).set({ storageBytes: sql`${accounts.storageBytes} - ${bytes}` }).where(eq(accounts.id, accountOf(q, projectId)))
        }
      }),

    /** Forgets the stored-bytes counter of the account owning `projectId` (after files went by a path that does not count them). */
    recountStorageOfProject: (projectId: string) => db.write((q) => q.update(accounts).set({ storageBytes: null }).where(eq(accounts.id, accountOf(q, projectId)))),

    /** Bytes and number of stored files, from their rows (wherever the bytes live: the data directory or a bucket). */
    storedFiles: async (): Promise<{ bytes: number; count: number }> => {
      const [row] = await db.read((q) => q.select({ bytes: sum(files.size), count: count() }).from(files))
      return { bytes: Number(row?.bytes ?? 0), count: row?.count ?? 0 }
    },
  }
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>

const setThrough = (q: DbOrTx, rollup: Rollup, day: string) =>
  q.insert(telemetryRollupState).values({ name: rollup, throughDay: day }).onConflictDoUpdate({ target: telemetryRollupState.name, set: { throughDay: day } })

/** The account owning a project, as a subquery. */
const accountOf = (q: DbOrTx, projectId: string): SQL => sql`(${q.select({ id: projects.accountId }).from(projects).where(eq(projects.id, projectId))})`
