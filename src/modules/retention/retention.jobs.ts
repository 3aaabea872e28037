import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { removeWithdrawnFiles } from '../../files/withdrawn-files'
import type { DomainJobs } from '../../jobs/jobs.types'
import { HOUR } from '../../lib/clock'
import { dayOf } from './retention.rollups'
import { createRetentionRepository } from './retention.repository'
import { runRetention } from './retention.service'

export const RETENTION_JOB = 'retention.run'
export const ORPHAN_FILES_JOB = 'retention.orphan-files'
const REMOVE_WITHDRAWN_JOB = 'retention.remove_withdrawn_files'

/** A file younger than this may still be waiting for its row (an upload in flight): the sweep leaves it. */
const ORPHAN_MIN_AGE_MS = HOUR

/** Queues, in the transaction deleting reports of `projectId`, the removal of their files (withdrawn-files.ts). */
export async function enqueueWithdrawnFilesRemoval(deps: Pick<AppDeps, 'jobs'>, tx: Seam, projectId: string): Promise<void> {
  await deps.jobs.enqueue(tx, { kind: REMOVE_WITHDRAWN_JOB, payload: { projectId } })
}

/**
 * Once a day (04:37, a quiet hour) the schedule queues one retention run; the job rolls up complete
 * days and deletes what is past retention (retention.service.ts). At 04:47 a second job removes the
 * stored files no row names, older than an hour (a process killed between writing an upload and
 * committing its row leaves one). One job of each a day: the key is the day.
 */
export function retentionJobs(deps: AppDeps): DomainJobs {
  return {
    handlers: [
      {
        kind: RETENTION_JOB,
        // A first run over a large backlog pauses between batches for as long as they hold the lock.
        timeoutMs: 6 * HOUR,
        maxAttempts: 3,
        async run() {
          const run = await runRetention(deps)
          deps.logger.info('retention run', { ...run.deleted, rolled_up_days: run.rolledUpDays, files_removed: run.filesRemoved, batches: run.batches, max_batch_ms: Math.round(run.maxBatchMs * 10) / 10, vacuumed_pages: run.vacuumedPages })
        },
      },
      {
        kind: ORPHAN_FILES_JOB,
        timeoutMs: HOUR,
        maxAttempts: 3,
        async run() {
          const removed = await deps.files.removeOrphans(deps.db, new Date(deps.clock.now().getTime() - ORPHAN_MIN_AGE_MS))
          if (removed) deps.logger.info('removed stored files no row names', { files_removed: removed })
        },
      },
      {
        kind: REMOVE_WITHDRAWN_JOB,
        async run({ projectId }: { projectId: string }) {
          if ((await removeWithdrawnFiles(deps)) > 0) await createRetentionRepository({ db: deps.db }).recountStorageOfProject(projectId)
        },
      },
    ],
    schedules: [
      {
        name: 'retention.daily',
        pattern: '37 4 * * *',
        run: () => deps.jobs.enqueue(deps.db, { kind: RETENTION_JOB, payload: {}, idempotencyKey: `retention:${dayOf(deps.clock.now().getTime())}` }),
      },
      {
        name: 'retention.orphan-files',
        pattern: '47 4 * * *',
        run: () => deps.jobs.enqueue(deps.db, { kind: ORPHAN_FILES_JOB, payload: {}, idempotencyKey: `orphan-files:${dayOf(deps.clock.now().getTime())}` }),
      },
    ],
  }
}
