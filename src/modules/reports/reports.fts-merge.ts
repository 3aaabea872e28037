import type { AppDeps } from '../../app-deps'
import { rawSqlite } from '../../db/client'
import type { DomainJobs } from '../../jobs/jobs.types'

/** Pages one merge step may write: a few milliseconds of the write lock, so request writes interleave. */
const PAGES_PER_STEP = 200
/** Longest a tick keeps merging; the rest waits for the next tick. */
const TICK_BUDGET_MS = 250

/**
 * Merges the segments of `reports_fts` in the background. The table is configured with automerge
 * off (see reports.fts.ts): merging as part of each insert made a 2 KB report cost 0.45-0.8 ms at
 * 1M reports instead of 0.1-0.2 ms. New reports therefore land in small segments that this loop, in the
 * job thread, folds together every few seconds in short steps; FTS5's crisis merge still bounds the
 * segments per level (16) should the loop fall behind.
 * Returns the number of steps that did work.
 */
export function mergeSearchSegments(deps: Pick<AppDeps, 'db'>, budgetMs = TICK_BUDGET_MS): number {
  const sqlite = rawSqlite(deps.db)
  const merge = sqlite.prepare(`INSERT INTO reports_fts(reports_fts, rank) VALUES ('merge', ${PAGES_PER_STEP})`)
  // Prepared per tick and finalized after it: between ticks this connection holds no statement.
  const changes = sqlite.prepare<{ n: number }, []>('SELECT total_changes() AS n')
  const started = performance.now()
  let steps = 0
  try {
    while (performance.now() - started < budgetMs) {
      const before = changes.all()[0]!.n
      merge.run()
      // FTS5's documented signal: fewer than two changed rows means there was nothing left to merge.
      if (changes.all()[0]!.n - before < 2) break
      steps++
    }
  } finally {
    merge.finalize()
    changes.finalize()
  }
  return steps
}

export function reportsJobs(deps: AppDeps): DomainJobs {
  // Merging waits out request bursts: until then searches read a few more segments, and FTS5's crisis
  // merge (inside the inserts) still bounds them.
  return { schedules: [{ name: 'reports.fts-merge', pattern: '*/5 * * * * *', run: () => void mergeSearchSegments(deps), yieldsToRequests: true }] }
}
