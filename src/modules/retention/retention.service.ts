import type { Database } from 'bun:sqlite'
import type { AppDeps } from '../../app-deps'
import { rawSqlite } from '../../db/client'
import { DAY } from '../../lib/clock'
import { rolledUpThrough, rollUpTelemetry, startOfDay } from './retention.rollups'

/** Longest a batch may hold the write lock; batches are sized by time to stay under it. */
export const BATCH_TARGET_MS = 15
const MIN_BATCH = 50
/** Rows per batch at most: ~5-15 ms measured on a loaded 2-core machine, whose timings vary 3x from batch to batch. */
const MAX_BATCH = 8_000
const MAX_VACUUM_PAGES = 1_000
/** Pages given back to the file system per incremental-vacuum step, at first (then sized by time). */
const FIRST_VACUUM_PAGES = 256

export interface RetentionOptions {
  /** Between batches: the request thread takes the write lock here. Default: a pause as long as the batch held it (at least 5 ms). */
  pause?: (heldMs: number) => Promise<void>
  targetMs?: number
}

/** What one run did, for the log and for tests. */
export interface RetentionRun {
  rolledUpDays: number
  deleted: { events: number; perf_snapshots: number; play_sessions: number; session_replays: number; event_ids: number }
  filesRemoved: number
  batches: number
  /** Longest time one batch (or vacuum step) held the write lock. */
  maxBatchMs: number
  vacuumedPages: number
}

const defaultPause = (heldMs: number) => Bun.sleep(Math.max(5, heldMs))

/**
 * Deletes with `step(limit)` (one short immediate transaction returning the rows it deleted) until
 * a step deletes fewer than `limit`, sizing `limit` so that a step holds the lock about `targetMs`.
 */
async function inBatches(run: RetentionRun, o: Required<RetentionOptions>, step: (limit: number) => number): Promise<number> {
  let limit = 500
  let total = 0
  for (;;) {
    const started = performance.now()
    const n = step(limit)
    const held = performance.now() - started
    run.batches++
    run.maxBatchMs = Math.max(run.maxBatchMs, held)
    total += n
    if (n < limit) return total
    // Grow by half at most (one slow batch must not follow a fast one), shrink at once.
    limit = Math.max(MIN_BATCH, Math.min(MAX_BATCH, Math.ceil(limit * 1.5), Math.floor((limit * o.targetMs) / Math.max(held, 0.1))))
    await o.pause(held)
  }
}

function deleteStatements(sqlite: Database) {
  return {
    nameIds: sqlite.query<{ id: number }, []>('SELECT id FROM event_names'),
    projectIds: sqlite.query<{ id: string }, []>('SELECT id FROM projects'),
    events: sqlite.query<never, [number, number, number]>(
      'DELETE FROM events WHERE id IN (SELECT id FROM events WHERE name_id = ? AND created_at < ? ORDER BY created_at LIMIT ?)',
    ),
    perf: sqlite.query<never, [string, number, number]>(
      'DELETE FROM perf_snapshots WHERE rowid IN (SELECT rowid FROM perf_snapshots WHERE project_id = ? AND created_at < ? ORDER BY created_at LIMIT ?)',
    ),
    sessions: sqlite.query<never, [string, number, number]>(
      'DELETE FROM play_sessions WHERE rowid IN (SELECT rowid FROM play_sessions WHERE project_id = ? AND started_at < ? ORDER BY started_at LIMIT ?)',
    ),
    // Client event ids taken in (ingest.table.ts): a retry older than the window is a new event again.
    eventIds: sqlite.query<never, [number, number]>(
      'DELETE FROM ingested_event_ids WHERE rowid IN (SELECT rowid FROM ingested_event_ids WHERE created_at < ? ORDER BY created_at LIMIT ?)',
    ),
    expiredReplays: sqlite.query<{ id: string; file_key: string; file_size: number; project_id: string }, [number, number]>(
      'SELECT id, file_key, file_size, project_id FROM session_replays WHERE created_at < ? LIMIT ?',
    ),
    deleteReplay: sqlite.query<never, [string]>('DELETE FROM session_replays WHERE id = ?'),
    // The account's stored-bytes counter (null: not counted yet, stays null).
    uncount: sqlite.query<never, [number, string]>('UPDATE accounts SET storage_bytes = storage_bytes - ? WHERE id = (SELECT account_id FROM projects WHERE id = ?)'),
  }
}

/** One statement in an immediate transaction (taking the write lock up front, see db/client.ts); the rows it changed. */
const immediate = (sqlite: Database, fn: () => { changes: number }): number => sqlite.transaction(() => fn().changes).immediate()

/**
 * One retention run: rolls up complete days, then deletes raw telemetry older than
 * `GLITCHBOX_RETENTION_DAYS` (never past what is rolled up) with the client event ids taken in
 * before then, and replays older than `GLITCHBOX_REPLAY_RETENTION_DAYS` with their files, in batches
 * that each hold the write lock for about `targetMs`, pausing between them so ingestion goes on;
 * last, gives the freed pages back to the file system when the database has incremental auto-vacuum. Reports, comments, attachments and
 * screenshots are never touched.
 */
export async function runRetention(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>, opts: RetentionOptions = {}): Promise<RetentionRun> {
  const o: Required<RetentionOptions> = { pause: opts.pause ?? defaultPause, targetMs: opts.targetMs ?? BATCH_TARGET_MS }
  const sqlite = rawSqlite(deps.db)
  // Checkpoints are the job thread's schedule's work (db/checkpoint.ts): none inside a batch's commit,
  // so a batch's time is the time it holds the lock.
  const autocheckpoint = sqlite.query<{ wal_autocheckpoint: number }, []>('PRAGMA wal_autocheckpoint').get()!.wal_autocheckpoint
  sqlite.run('PRAGMA wal_autocheckpoint = 0')
  try {
    return await retain(deps, sqlite, o)
  } finally {
    sqlite.run(`PRAGMA wal_autocheckpoint = ${autocheckpoint}`)
  }
}

async function retain(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>, sqlite: Database, o: Required<RetentionOptions>): Promise<RetentionRun> {
  const now = deps.clock.now().getTime()
  const { retentionDays, replayRetentionDays } = deps.config
  const run: RetentionRun = { rolledUpDays: 0, deleted: { events: 0, perf_snapshots: 0, play_sessions: 0, session_replays: 0, event_ids: 0 }, filesRemoved: 0, batches: 0, maxBatchMs: 0, vacuumedPages: 0 }
  const cutoff = retentionDays > 0 ? now - retentionDays * DAY : null

  run.rolledUpDays = await rollUpTelemetry(sqlite, { now, retainedFrom: cutoff ?? 0, pause: () => o.pause(0) })

  const st = deleteStatements(sqlite)
  if (cutoff !== null) {
    // Raw rows go only once their day is rolled up: never past the end of the last rolled-up day.
    const rolledEnd = (rollup: 'events' | 'sessions') => {
      const through = rolledUpThrough(sqlite, rollup)
      return through ? startOfDay(through) + DAY : 0
    }
    const eventsBefore = Math.min(cutoff, rolledEnd('events'))
    const sessionsBefore = Math.min(cutoff, rolledEnd('sessions'))
    for (const { id } of st.nameIds.all()) {
      run.deleted.events += await inBatches(run, o, (limit) => immediate(sqlite, () => st.events.run(id, eventsBefore, limit)))
    }
    for (const { id } of st.projectIds.all()) {
      run.deleted.perf_snapshots += await inBatches(run, o, (limit) => immediate(sqlite, () => st.perf.run(id, cutoff, limit)))
      run.deleted.play_sessions += await inBatches(run, o, (limit) => immediate(sqlite, () => st.sessions.run(id, sessionsBefore, limit)))
    }
    run.deleted.event_ids = await inBatches(run, o, (limit) => immediate(sqlite, () => st.eventIds.run(cutoff, limit)))
  }

  if (replayRetentionDays > 0) {
    const replayCutoff = now - replayRetentionDays * DAY
    const removed: string[] = []
    run.deleted.session_replays = await inBatches(run, o, (limit) => {
      const expired = st.expiredReplays.all(replayCutoff, limit)
      if (expired.length > 0) {
        sqlite
          .transaction(() => {
            for (const r of expired) {
              st.deleteReplay.run(r.id)
              st.uncount.run(r.file_size, r.project_id)
            }
          })
          .immediate()
      }
      removed.push(...expired.map((r) => r.file_key))
      return expired.length
    })
    // Rows first, then the blobs: a crash in between leaves unreferenced files, never rows pointing at missing ones.
    for (let i = 0; i < removed.length; i += 200) {
      const keys = removed.slice(i, i + 200)
      await deps.files.remove(deps.db, keys)
      run.filesRemoved += keys.length
    }
  }

  run.vacuumedPages = await giveBackFreePages(sqlite, run, o)
  return run
}

/**
 * Gives free pages back to the file system in `PRAGMA incremental_vacuum(N)` steps sized by time, when
 * the database has incremental auto-vacuum (new data directories do; see db/client.ts). Without it the
 * freed pages stay in the file and new rows reuse them first, so the file stops growing.
 */
async function giveBackFreePages(sqlite: Database, run: RetentionRun, o: Required<RetentionOptions>): Promise<number> {
  if (sqlite.query<{ auto_vacuum: number }, []>('PRAGMA auto_vacuum').get()?.auto_vacuum !== 2) return 0
  const freePages = () => sqlite.query<{ freelist_count: number }, []>('PRAGMA freelist_count').get()!.freelist_count
  let pages = FIRST_VACUUM_PAGES
  let total = 0
  for (let free = freePages(); free > 0; ) {
    const started = performance.now()
    sqlite.transaction(() => sqlite.run(`PRAGMA incremental_vacuum(${Math.min(pages, free)})`)).immediate()
    const held = performance.now() - started
    run.batches++
    run.maxBatchMs = Math.max(run.maxBatchMs, held)
    const left = freePages()
    total += free - left
    if (left >= free) break
    free = left
    pages = Math.max(16, Math.min(MAX_VACUUM_PAGES, Math.ceil(pages * 1.5), Math.floor((pages * o.targetMs) / Math.max(held, 0.1))))
    await o.pause(held)
  }
  return total
}
