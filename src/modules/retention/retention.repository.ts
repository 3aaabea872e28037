import { eq } from 'drizzle-orm'
import type { DbOrTx, Seam } from '../../db/client'
import { createFilesRepository } from '../../files/files.repository'
import { createAccountsRepository } from '../auth/accounts.repository'
import { createIngestRepository } from '../ingest/ingest.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { createSdkRetentionRepository, type ExpiredReplay } from '../sdk/sdk.retention.repository'
import { telemetryDailyEvents, telemetryDailySessions, telemetryRollupState } from './retention.table'

export type Rollup = 'events' | 'sessions'
export type DailyEvents = Omit<typeof telemetryDailyEvents.$inferInsert, 'day'>
export type DailySessions = Omit<typeof telemetryDailySessions.$inferInsert, 'day'>
/** Rows per INSERT when a day's rollup is written, well under any engine's bound-parameter limit. */
const INSERT_CHUNK = 500

/**
 * Every read and write retention makes: the daily rollups (its own tables, over the seam), and, through
 * their owners' repositories, the age and the bounded deletes of raw telemetry past retention (sdk,
 * ingest) and the stored-bytes counters (accounts, files). Deletes take at most `limit` rows, oldest
 * first, so a caller sizes its batches.
 */
export function createRetentionRepository({ db }: { db: Seam }) {
  const sdk = createSdkRetentionRepository({ db })
  const projects = createProjectsRepository({ db })
  const accounts = createAccountsRepository({ db })

  return {
    /** The last day a rollup has done, or null before its first run. */
    rolledUpThrough: async (rollup: Rollup): Promise<string | null> => {
      const [row] = await db.read((q) => q.select({ day: telemetryRollupState.throughDay }).from(telemetryRollupState).where(eq(telemetryRollupState.name, rollup)).limit(1))
      return row?.day ?? null
    },

    /** Records how far a rollup has gone. */
    setRolledUpThrough: (rollup: Rollup, day: string) => db.write((q) => setThrough(q, rollup, day)),

    /** When the oldest raw event (sent at or after `since`, epoch ms) was sent (null: none). */
    oldestEventAt: (since = 0) => sdk.oldestEventAt(since),

    /** When the oldest kept play session (started at or after `since`, epoch ms) started (null: none). */
    oldestSessionAt: async (since = 0) => sdk.oldestSessionAt(await projects.allIds(), new Date(since)),

    /** When the oldest kept perf snapshot was taken (null: none). */
    oldestPerfAt: async () => sdk.oldestPerfAt(await projects.allIds()),

    /** When the oldest kept replay was stored (null: none). */
    oldestReplayAt: () => sdk.oldestReplayAt(),

    /** Events sent in [from, to) per project and name, with their distinct sessions. */
    eventsBetween: (from: Date, to: Date): Promise<DailyEvents[]> => sdk.eventsBetween(from, to),

    /** Play sessions started in [from, to) per project, game version, platform and environment. */
    sessionsBetween: async (from: Date, to: Date): Promise<DailySessions[]> => sdk.sessionsBetween(await projects.allIds(), from, to),

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
    eventNameIds: () => sdk.allEventNameIds(),

    /** Ids of every project (perf snapshots and sessions are deleted project by project, along their index). */
    projectIds: () => projects.allIds(),

    /** Deletes up to `limit` of the name's events sent before `before`, oldest first. */
    deleteEvents: (nameId: number, before: Date, limit: number) => sdk.deleteEvents(nameId, before, limit),

    /** Deletes up to `limit` of the project's perf snapshots taken before `before`, oldest first. */
    deletePerfSnapshots: (projectId: string, before: Date, limit: number) => sdk.deletePerfSnapshots(projectId, before, limit),

    /** Deletes up to `limit` of the project's play sessions started before `before`, oldest first. */
    deleteSessions: (projectId: string, before: Date, limit: number) => sdk.deleteSessions(projectId, before, limit),

    /** Deletes up to `limit` client event ids taken in before `before`: a retry older than the window is a new event again. */
    deleteEventIds: (before: Date, limit: number) => createIngestRepository({ db }).deleteEventIdsBefore(before, limit),

    /** Up to `limit` replays stored before `before`. */
    expiredReplays: (before: Date, limit: number): Promise<ExpiredReplay[]> => sdk.expiredReplays(before, limit),

    /** Deletes these replays' rows and takes their bytes off their accounts' stored-bytes counters (a null counter stays null), in one write. */
    deleteReplays: (replays: ExpiredReplay[]) =>
      db.write(async () => {
        if (!replays.length) return
        await sdk.deleteReplays(replays.map((r) => r.id))
        const bytesByProject = new Map<string, number>()
        for (const r of replays) bytesByProject.set(r.projectId, (bytesByProject.get(r.projectId) ?? 0) + r.fileSize)
        const owners = await projects.byIds([...bytesByProject.keys()])
        for (const [projectId, bytes] of bytesByProject) {
          const accountId = owners.get(projectId)?.accountId
          if (accountId) await accounts.subtractStorageBytes(accountId, bytes)
        }
      }),

    /** Forgets the stored-bytes counter of the account owning `projectId` (after files went by a path that does not count them). */
    recountStorageOfProject: async (projectId: string) => {
      const accountId = await projects.accountIdOf(projectId)
      if (accountId) await accounts.forgetStorageBytes(accountId)
    },

    /** Bytes and number of stored files, from their rows (wherever the bytes live: the data directory or a bucket). */
    storedFiles: () => createFilesRepository({ db }).totals(),
  }
}

export type RetentionRepository = ReturnType<typeof createRetentionRepository>

const setThrough = (q: DbOrTx, rollup: Rollup, day: string) =>
  q.insert(telemetryRollupState).values({ name: rollup, throughDay: day }).onConflictDoUpdate({ target: telemetryRollupState.name, set: { throughDay: day } })

