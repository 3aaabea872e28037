import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { MINUTE } from '../../lib/clock'
import { keyedTurns } from '../../lib/key-turns'
import { RESYMBOLICATE_JOB, type ResymbolicatePayload, resymbolicateStoredDumps } from './resymbolicate'

/**
 * The re-symbolication of stored dumps a new `.sym` queues (resymbolicate.ts); a failed run is retried
 * twice. Runs of one project take turns in this process: a build uploads its `.sym` files together,
 * one job each, and once the first has named a report's frames the others find it done instead of
 * walking the same dumps side by side.
 */
export function debugFilesJobs(deps: AppDeps): DomainJobs {
  const inProjectTurn = keyedTurns()
  return {
    handlers: [
      {
        kind: RESYMBOLICATE_JOB,
        // 500 dumps walked one after another (each bounded by the walker's own limits), after the project's earlier runs.
        timeoutMs: 30 * MINUTE,
        maxAttempts: 3,
        run: (payload: ResymbolicatePayload) =>
          inProjectTurn(payload.projectId, async () => {
            const renamed = await resymbolicateStoredDumps(deps, payload)
            deps.logger.info('stored minidumps re-symbolicated', { project_id: payload.projectId, debug_id: payload.debugId, reports_updated: renamed })
          }),
      },
    ],
  }
}
