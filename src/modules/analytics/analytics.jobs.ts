import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
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
          const n = rollUpAnalytics(deps.db, deps.clock.now())
          if (n.reports + n.sessions + n.perf + n.events) deps.logger.debug('analytics rollup', n)
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
