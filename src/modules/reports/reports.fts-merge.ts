import type { AppDeps } from '../../app-deps'
import { isPostgres } from '../../db/pg/client'
import type { DomainJobs } from '../../jobs/jobs.types'
import { createReportsSearchRepository } from './reports.search.repository'

export interface MergeOptions {
  /** Longest a tick keeps merging, pauses included; the rest waits for the next tick. */
  budgetMs?: number
  /** Pages one merge step may write: a few milliseconds of the write lock. */
  pagesPerStep?: number
  /** Pause after each step, the write lock free: a request-thread write waiting for it gets in. */
  gapMs?: number
}

/**
 * Merges the segments of `reports_fts` in the background. The table is configured with automerge
 * off (see reports.fts.ts): merging as part of each insert made a 2 KB report cost 0.45-0.8 ms at
 * 1M reports instead of 0.1-0.2 ms. New reports therefore land in small segments that this loop, in the
 * job thread, folds together every few seconds in short steps; FTS5's crisis merge still bounds the
 * segments per level (16) should the loop fall behind.
 *
 * Each step commits on its own and is followed by a pause: run back to back, 200-page steps (5-16 ms
 * each) held the write lock for most of a 250 ms tick, and a request-thread write waiting for it
 * blocked that thread's event loop in SQLite's busy handler (/health p99 spikes of 60-85 ms).
 * Returns the number of steps that did work.
 */
export async function mergeSearchSegments(deps: Pick<AppDeps, 'db'>, o: MergeOptions = {}): Promise<number> {
  const { budgetMs = 1000, pagesPerStep = 100, gapMs = 10 } = o
  const repo = createReportsSearchRepository({ db: deps.db })
  const started = performance.now()
  let steps = 0
  while (performance.now() - started < budgetMs) {
    if (!(await repo.mergeStep(pagesPerStep))) break
    steps++
    await Bun.sleep(gapMs)
  }
  return steps
}

export function reportsJobs(deps: AppDeps): DomainJobs {
  // PostgreSQL's search index (a GIN over a tsvector) needs no merging of ours.
  if (isPostgres(deps.db)) return {}
  // Merging waits out request bursts: until then searches read a few more segments, and FTS5's crisis
  // merge (inside the inserts) still bounds them.
  return { schedules: [{ name: 'reports.fts-merge', pattern: '*/5 * * * * *', run: async () => void (await mergeSearchSegments(deps)), yieldsToRequests: true }] }
}
