// Entry point of the job worker thread: the server runs its job runner here, beside the request
// thread, so webhook deliveries, mail and other background work never take turns with requests.
// It opens its own connection to the same SQLite file (WAL: readers never block the writer), or its
// own pool to the same PostgreSQL database.
import type { Config } from '../config/config'
import { closeDb as closeDatabase } from '../db/client'
import { buildDeps } from '../deps'
import { JobRunner } from './jobs.runner'
import { modules } from '../modules/registry'
import { collectJobs } from './registry'
import { BUSY_LAG_MS, requestLagMs } from './request-pressure'

declare const self: Worker

export type WorkerMessage = { type: 'start'; config: Config; pressure: SharedArrayBuffer } | { type: 'stop' }
export type WorkerReply = { type: 'started'; reclaimed: number } | { type: 'stopped' } | { type: 'failed'; error: string }

let runner: JobRunner | null = null
let closeDb: (() => Promise<void>) | null = null

self.onmessage = async (event: MessageEvent<WorkerMessage>) => {
  const msg = event.data
  try {
    if (msg.type === 'start') {
      const deps = buildDeps(msg.config)
      // Jobs write reports too (store reviews filed as reports): their events reach the same subscribers as the request thread's.
      for (const m of modules) m.subscribe?.(deps)
      const pressure = msg.pressure
      runner = new JobRunner({
        db: deps.db,
        clock: deps.clock,
        logger: deps.logger.child({ thread: 'jobs' }),
        ...collectJobs(deps),
        busy: () => requestLagMs(pressure) > BUSY_LAG_MS,
      })
      closeDb = () => closeDatabase(deps.db)
      const reclaimed = await runner.reclaimOrphans()
      runner.start()
      self.postMessage({ type: 'started', reclaimed } satisfies WorkerReply)
    } else if (msg.type === 'stop') {
      await runner?.stop()
      await closeDb?.()
      self.postMessage({ type: 'stopped' } satisfies WorkerReply)
    }
  } catch (err) {
    self.postMessage({ type: 'failed', error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply)
  }
}
