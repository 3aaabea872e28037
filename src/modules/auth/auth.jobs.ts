import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { createAuthRepository } from './auth.repository'
import { pruneLoginThrottle } from './auth.throttle'

/** A nightly sweep of expired sessions, verification tokens, share codes and login throttle rows (they no longer count anyway). */
export function authJobs(deps: AppDeps): DomainJobs {
  return {
    schedules: [
      {
        name: 'auth.prune-expired',
        pattern: '41 3 * * *',
        run: async () => {
          const now = deps.clock.now()
          await deps.db.write(async () => {
            await createAuthRepository({ db: deps.db }).pruneExpired(now)
            await pruneLoginThrottle(deps.db, now)
          })
        },
      },
    ],
  }
}
