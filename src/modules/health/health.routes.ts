import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { DISK_FULL, diskWatchOf } from '../../http/disk-full'

/**
 * `GET /health` at the root, outside the envelope: 200 while the database answers and writes can
 * succeed; 503 with the reason when the database is unreachable or the disk is full.
 */
export const healthRoutes = (deps: AppDeps) => {
  const disk = diskWatchOf(deps)
  return new Elysia().get(
    '/health',
    () => {
      try {
        deps.db.get(sql`SELECT 1`)
      } catch (err) {
        deps.logger.error('health check failed', { error: String(err) })
        return Response.json({ status: 'unhealthy', error: 'database unreachable' }, { status: 503 })
      }
      if (disk.full()) return Response.json({ status: 'unhealthy', error: DISK_FULL }, { status: 503 })
      return Response.json({ status: 'healthy' })
    },
    { detail: { tags: ['Public'], summary: 'Health check (not enveloped)' } },
  )
}
