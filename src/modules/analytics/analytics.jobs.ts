import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { inShortSteps } from '../../jobs/short-steps'
import { rollUpAnalytics } from './analytics.rollup'

export const ANALYTICS_ROLLUP_JOB = 'analytics.rollup'

/** Every minute the schedule queues one rollup run (key: the minute); the job brings the cursor-driven rollups up to date. */
export function analyticsJobs(deps: AppDeps): DomainJobs {
  return {
    handlers: [
      {
        kind: ANALYTICS_ROLLUP_JOB,
        maxAttempts: 3,
        async run() {
          // One step of each rollup at a time, with a pause between: a burst of submissions leaves
          // thousands of occurrences to count, and back-to-back transactions on this thread would
          // keep the request thread's commits waiting for the write lock (p99 of 1 s while stacking).
          const total = { reports: 0, sessions: 0, perf: 0, events: 0 }
          await inShortSteps(async () => {
            const n = await rollUpAnalytics(deps.db, deps.clock.now(), 1)
            for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += n[k]
            return n.reports + n.sessions + n.perf + n.events > 0
          }, 400)
          if (total.reports + total.sessions + total.perf + total.events) deps.logger.debug('analytics rollup', total)
        },
      },
    ],
    schedules: [
      {
        name: 'analytics.rollup',
        pattern: '* * * * *',
        yieldsToRequests: true,
        run: () => deps.jobs.enqueue(deps.db, { kind: ANALYTICS_ROLLUP_JOB, payload: {}, idempotencyKey: `analytics:${Math.floor(deps.clock.now().getTime() / 60_000)}` }),
      },
    ],
  }
}
