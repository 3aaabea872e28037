import type { AppDeps } from '../app-deps'
import { checkpointsOwnWal, checkpointWalWhileWriting } from '../db/checkpoint'
import { rawSqlite } from '../db/client'
import { modules } from '../modules/registry'
import type { JobHandler, Schedule } from './jobs.types'

/** All job handlers and schedules of all domains, plus the platform's own (mail, job pruning, SQLite's WAL checkpoints). */
export function collectJobs(deps: AppDeps): { handlers: JobHandler[]; schedules: Schedule[] } {
  const handlers: JobHandler[] = [deps.mailer.handler]
  const schedules: Schedule[] = [
    { name: 'jobs.prune', pattern: '17 3 * * *', run: () => deps.jobs.prune(deps.db) },
  ]
  // SQLite: the request thread leaves checkpoints to this thread (see db/checkpoint.ts): every second,
  // and every 100 ms within it while writes go on. Each process checkpoints its own connection's WAL.
  if (checkpointsOwnWal(deps.db)) {
    schedules.push({ name: 'db.checkpoint', pattern: '* * * * * *', perNode: true, run: () => checkpointWalWhileWriting(rawSqlite(deps.db)).then(() => undefined) })
  }
  for (const m of modules) {
    const contributed = m.jobs?.(deps)
    handlers.push(...(contributed?.handlers ?? []))
    schedules.push(...(contributed?.schedules ?? []))
  }
  return { handlers, schedules }
}
