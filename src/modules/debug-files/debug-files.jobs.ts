import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { MINUTE } from '../../lib/clock'
import { RESYMBOLICATE_JOB, type ResymbolicatePayload, resymbolicateStoredDumps } from './resymbolicate'

/** The re-symbolication of stored dumps a new `.sym` queues (resymbolicate.ts); a failed run is retried twice. */
export const debugFilesJobs = (deps: AppDeps): DomainJobs => ({
  handlers: [
    {
      kind: RESYMBOLICATE_JOB,
      // 500 dumps walked one after another, each bounded by the walker's own limits.
      timeoutMs: 30 * MINUTE,
      maxAttempts: 3,
      async run(payload: ResymbolicatePayload) {
        const renamed = await resymbolicateStoredDumps(deps, payload)
        deps.logger.info('stored minidumps re-symbolicated', { project_id: payload.projectId, debug_id: payload.debugId, reports_updated: renamed })
      },
    },
  ],
})
