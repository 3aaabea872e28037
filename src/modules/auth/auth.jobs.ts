import { lte } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { pruneExpiredSessions } from './auth.sessions'
import { emailVerifications, supportShareCodes } from './auth.table'
import { pruneLoginThrottle } from './auth.throttle'

/** A nightly sweep of expired sessions, verification tokens, share codes and login throttle rows (they no longer count anyway). */
export function authJobs(deps: AppDeps): DomainJobs {
  return {
    schedules: [
      {
        name: 'auth.prune-expired',
        pattern: '41 3 * * *',
        run: () => {
          const now = deps.clock.now()
          deps.db.transaction((tx) => {
            pruneExpiredSessions(tx, now)
            tx.delete(emailVerifications).where(lte(emailVerifications.expiresAt, now)).run()
            tx.delete(supportShareCodes).where(lte(supportShareCodes.expiresAt, now)).run()
            pruneLoginThrottle(tx, now)
          })
        },
      },
    ],
  }
}
