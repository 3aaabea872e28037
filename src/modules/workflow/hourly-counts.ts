import type { AppDeps } from '../../app-deps'
import { writeInTurn } from '../../db/client'
import { inShortSteps } from '../../jobs/short-steps'
import { createReportsRepository } from '../reports/reports.repository'
import { createAlertsRepository, type HourBucket } from './alerts.repository'

const HOUR = 3600_000
const CURSOR = 'report_hourly_counts'
/**
 * Reports counted per step: one step holds the write lock for a few milliseconds (in steps of 5,000,
 * catching up after a burst of 55,000 reports held it for 260 ms; see inShortSteps).
 */
const STEP = 500
/** The longest alert window (30 days): older reports never matter, so a first run starts there. */
const LONGEST_WINDOW_MS = 30 * 24 * HOUR

/**
 * The first seq filed within the last 30 days, by binary search over the reports' primary key (filing
 * time grows with seq): a server that had a million reports before alerts existed counts only the
 * month that can matter, not every report it ever had.
 */
async function startingCursor(deps: Pick<AppDeps, 'db'>, now: Date): Promise<number> {
  const since = now.getTime() - LONGEST_WINDOW_MS
  const reports = createReportsRepository({ db: deps.db })
  let lo = 0
  let hi = await reports.maxSeq()
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2)
    const [next] = await reports.afterSeq(mid, 1)
    if (next && next.createdAt.getTime() < since) lo = next.seq
    else hi = mid
  }
  return lo
}

/**
 * Counts the reports added since the cursor into hourly buckets (all, crash category, negative
 * sentiment), one step at a time; returns how many it counted. Walks the reports' primary key only.
 */
export async function countNewReports(deps: Pick<AppDeps, 'db'>, now: Date, maxSteps = 100): Promise<number> {
  const counts = createAlertsRepository({ db: deps.db })
  const reports = createReportsRepository({ db: deps.db })
  let counted = 0
  const countStep = async () => {
    // In turn on the cursor: two runs at once (two nodes' ticks overlapping) must not count a report twice.
    const n = await writeInTurn(deps.db, `rollup:${CURSOR}`, async () => {
      const after = (await counts.cursor(CURSOR)) ?? (await startingCursor(deps, now))
      const rows = await reports.afterSeq(after, STEP, { settledOnly: true })
      if (rows.length === 0) return 0
      const buckets = new Map<string, HourBucket>()
      for (const r of rows) {
        const hour = Math.floor(r.createdAt.getTime() / HOUR) * HOUR
        const key = `${r.projectId}|${hour}`
        const b = buckets.get(key) ?? { projectId: r.projectId, hour, reports: 0, crashes: 0, negative: 0 }
        b.reports++
        if (r.category === 'crash') b.crashes++
        if (r.sentiment === 'negative') b.negative++
        buckets.set(key, b)
      }
      await counts.addCounts([...buckets.values()], CURSOR, rows.at(-1)!.seq)
      return rows.length
    })
    counted += n
    return n === STEP
  }
  await inShortSteps(countStep, maxSteps)
  return counted
}

/** New reports, crash reports and negative reports of a project since `since` (whole hours: the bucket holding `since` counts). */
export function reportCountsSince(deps: Pick<AppDeps, 'db'>, projectId: string, since: Date) {
  return createAlertsRepository({ db: deps.db }).countsSince(projectId, new Date(Math.floor(since.getTime() / HOUR) * HOUR))
}
