import { sql } from 'drizzle-orm'
import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'

/** `GET /health` at the root, outside the envelope: 200 while the database answers, 503 otherwise. */
export const healthRoutes = (deps: AppDeps) =>
  new Elysia().get(
    '/health',
    () => {
      try {
        deps.db.get(sql`SELECT 1`)
        return Response.json({ status: 'healthy' })
      } catch (err) {
        deps.logger.error('health check failed', { error: String(err) })
        return Response.json({ status: 'unhealthy', error: 'database unreachable' }, { status: 503 })
      }
    },
    { detail: { tags: ['Public'], summary: 'Health check (not enveloped)' } },
  )
