import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { ROLLUP_STEP, rollUpOccurrences, rollUpSessions } from './analytics.rollup'
import { createTelemetryRepository } from './telemetry.repository'

/**
 * Rows of each rollup one read may count before it answers (4 steps of 500: 40-120 ms of work on
 * the 2-core VM, see README "Analytics"): a read just after a burst stays quick, and what is left
 * goes to the next read or the per-minute job.
 */
export const CATCH_UP_ROWS = 2_000

/** The header that carries `fresh_as_of` on every answer built from these rollups (lists have no field for it). */
export const FRESH_HEADER = 'x-glitchbox-fresh-as-of'

/** When the oldest occurrence or session the rollups have not counted yet was stored (ms), or null when they are up to date. */
async function oldestPending(db: Seam): Promise<number | null> {
  const times = (await createTelemetryRepository({ db }).oldestPending()).map((r) => r.at).filter((t): t is number => t !== null)
  return times.length ? Math.min(...times) : null
}

/**
 * Brings the occurrence and session rollups up to date before a read (at most CATCH_UP_ROWS rows of
 * each, yielding to other requests between steps) and answers how fresh the numbers are: the time
 * of the read when nothing is left to count, else when the oldest uncounted row was stored (every
 * submission and session stored before that instant is counted). Up to date, it costs two index
 * lookups and writes nothing. A failed step (disk full, the lock held elsewhere) is logged and the
 * read answers with the numbers as they are, saying how old they are.
 */
export async function catchUpRollups(deps: Pick<AppDeps, 'db' | 'clock' | 'logger'>): Promise<Date> {
  const now = deps.clock.now()
  if ((await oldestPending(deps.db)) === null) return now
  try {
    for (let step = 0; step < CATCH_UP_ROWS / ROLLUP_STEP; step++) {
      const counted = Math.max(await rollUpOccurrences(deps.db, 1), await rollUpSessions(deps.db, 1))
      if (counted < ROLLUP_STEP) break
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (err) {
    deps.logger.warn('analytics catch-up failed; answering with the numbers counted so far', { error: (err as Error).message })
  }
  const pending = await oldestPending(deps.db)
  return pending === null ? now : new Date(Math.min(pending, now.getTime()))
}
