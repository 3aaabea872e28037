import type { AppDeps } from '../../app-deps'
import { giveBackFreePages, withoutAutocheckpoint } from '../../db/free-pages'
import { DAY } from '../../lib/clock'
import type { ExpiredReplay } from '../sdk/sdk.retention.repository'
import { createRetentionRepository } from './retention.repository'
import { rollUpTelemetry, startOfDay } from './retention.rollups'

/** Longest a batch may hold the write lock; batches are sized by time to stay under it. */
export const BATCH_TARGET_MS = 15
const MIN_BATCH = 50
/** Rows per batch at most: ~5-15 ms measured on a loaded 2-core machine, whose timings vary 3x from batch to batch. */
const MAX_BATCH = 8_000

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
 * Deletes with `step(limit)` (one short write returning how many rows it deleted) until a step
 * deletes fewer than `limit`, sizing `limit` so that a step holds the lock about `targetMs`.
 */
async function inBatches(run: RetentionRun, o: Required<RetentionOptions>, step: (limit: number) => Promise<number>): Promise<number> {
  let limit = 500
  let total = 0
  for (;;) {
    const started = performance.now()
    const n = await step(limit)
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
  // No checkpoint inside a batch's commit, so a batch's time is the time it holds the lock.
  return withoutAutocheckpoint(deps.db, () => retain(deps, o))
}

async function retain(deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'files'>, o: Required<RetentionOptions>): Promise<RetentionRun> {
  const repo = createRetentionRepository({ db: deps.db })
  const now = deps.clock.now().getTime()
  const { retentionDays, replayRetentionDays } = deps.config
  const run: RetentionRun = { rolledUpDays: 0, deleted: { events: 0, perf_snapshots: 0, play_sessions: 0, session_replays: 0, event_ids: 0 }, filesRemoved: 0, batches: 0, maxBatchMs: 0, vacuumedPages: 0 }
  const cutoff = retentionDays > 0 ? new Date(now - retentionDays * DAY) : null

  run.rolledUpDays = await rollUpTelemetry(deps.db, { now, retainedFrom: cutoff?.getTime() ?? 0, pause: () => o.pause(0) })

  if (cutoff !== null) {
    // Raw rows go only once their day is rolled up: never past the end of the last rolled-up day.
    const rolledEnd = async (rollup: 'events' | 'sessions') => {
      const through = await repo.rolledUpThrough(rollup)
      return new Date(Math.min(cutoff.getTime(), through ? startOfDay(through) + DAY : 0))
    }
    const eventsBefore = await rolledEnd('events')
    const sessionsBefore = await rolledEnd('sessions')
    for (const id of await repo.eventNameIds()) {
      run.deleted.events += await inBatches(run, o, (limit) => repo.deleteEvents(id, eventsBefore, limit))
    }
    for (const id of await repo.projectIds()) {
      run.deleted.perf_snapshots += await inBatches(run, o, (limit) => repo.deletePerfSnapshots(id, cutoff, limit))
      run.deleted.play_sessions += await inBatches(run, o, (limit) => repo.deleteSessions(id, sessionsBefore, limit))
    }
    run.deleted.event_ids = await inBatches(run, o, (limit) => repo.deleteEventIds(cutoff, limit))
  }

  if (replayRetentionDays > 0) {
    const replayCutoff = new Date(now - replayRetentionDays * DAY)
    const removed: string[] = []
    run.deleted.session_replays = await inBatches(run, o, async (limit) => {
      const expired: ExpiredReplay[] = await repo.expiredReplays(replayCutoff, limit)
      await repo.deleteReplays(expired)
      removed.push(...expired.map((r) => r.fileKey))
      return expired.length
    })
    // Rows first, then the blobs: a crash in between leaves unreferenced files, never rows pointing at missing ones.
    for (let i = 0; i < removed.length; i += 200) {
      const keys = removed.slice(i, i + 200)
      await deps.files.remove(deps.db, keys)
      run.filesRemoved += keys.length
    }
  }

  run.vacuumedPages = await giveBackFreePages(deps.db, {
    targetMs: o.targetMs,
    onStep: (held) => {
      run.batches++
      run.maxBatchMs = Math.max(run.maxBatchMs, held)
    },
    pause: o.pause,
  })
  return run
}
