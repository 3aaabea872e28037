import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { connectionFails, engineOf } from '../../db/read-probe'
import { databaseReadWatchOf } from '../../http/database-unreadable'
import { DISK_FULL, diskWatchOf } from '../../http/disk-full'
import { throttledErrorLog } from '../../lib/throttled-log'

/**
 * `GET /health` at the root, outside the envelope: 200 while the database can be read and writes
 * can succeed; 503 with the reason when the server's connection fails (on PostgreSQL: the server
 * does not answer a query, and 200 again by itself once it does), the database file cannot be
 * read (SQLite: a read of the schema from the file, see db/read-probe.ts: the connection alone
 * answers from its cache; writes answer 503 meanwhile, see http/database-unreadable.ts) or the disk
 * is full. Both answers name the engine (`database.engine`). A failing check is logged once a minute.
 */
export const healthRoutes = (deps: AppDeps) => {
  const disk = diskWatchOf(deps)
  const database = databaseReadWatchOf(deps)
  const logFailure = throttledErrorLog(deps)
  const engine = { engine: engineOf(deps.db) }
  return new Elysia().get(
    '/health',
    async () => {
      const cause = (await connectionFails(deps.db)) ?? database.check()
      if (cause) {
        const reason = `the database cannot be read: ${cause}`
        logFailure('health', 'health check failed', { error: reason, data_dir: deps.config.dataDir })
        return Response.json({ status: 'unhealthy', error: reason, database: engine }, { status: 503 })
      }
      if (disk.full()) return Response.json({ status: 'unhealthy', error: DISK_FULL, database: engine }, { status: 503 })
      return Response.json({ status: 'healthy', database: engine })
    },
    { detail: { tags: ['Public'], summary: 'Health check (not enveloped)' } },
  )
}
