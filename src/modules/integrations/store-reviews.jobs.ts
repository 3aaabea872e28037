import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { createJobsRepository } from '../../jobs/jobs.repository'
import { DeferJob, type JobHandler, type Schedule } from '../../jobs/jobs.types'
import { HOUR } from '../../lib/clock'
import { createIntegrationsRepository } from './integrations.repository'
import { PROVIDER_TIMEOUT_MS } from './providers/provider-http'
import { MAX_PAGES } from './providers/store'
import { syncStoreConnection } from './store-reviews.service'

export const STORE_SYNC_KIND = 'integration.store_sync'
const STORE_KEYS = ['google_play', 'app_store']

/** Enqueues one import job per active store connection subscribed to `reviews` (once per connection and hour); returns how many. */
export async function enqueueStoreSyncs(deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): Promise<number> {
  const hour = deps.clock.now().toISOString().slice(0, 13)
  const rows = await createIntegrationsRepository({ db: deps.db }).subscribedTo('reviews', STORE_KEYS)
  await deps.jobs.enqueue(
    deps.db,
    rows.map((r) => ({ kind: STORE_SYNC_KIND, payload: { integrationId: r.id }, idempotencyKey: `${STORE_SYNC_KIND}:${r.id}:${hour}`, maxAttempts: 5 })),
  )
  return rows.length
}

/**
 * Lets a resumed store connection's held import (and its retries) run now instead of at the end of
 * their hold. Its jobs' keys carry the hour, so they are matched by prefix.
 */
export async function releaseHeldSyncs(db: Seam, integrationId: string, now: Date): Promise<void> {
  await createJobsRepository({ db }).runPendingNow(STORE_SYNC_KIND, `${STORE_SYNC_KIND}:${integrationId}:`, now)
}

/** Every hour on the hour. */
export const storeSyncSchedule = (deps: Pick<AppDeps, 'db' | 'clock' | 'jobs'>): Schedule => ({ name: 'integrations.store-sync', pattern: '0 * * * *', run: async () => void (await enqueueStoreSyncs(deps)) })

/**
 * The hourly import of one connection; a connection deleted or unsubscribed since is skipped, a paused
 * one's import is held (without using an attempt) until it is resumed, a store's refusal retried.
 */
export function storeSyncHandler(deps: AppDeps): JobHandler<{ integrationId: string }> {
  return {
    kind: STORE_SYNC_KIND,
    // Token request plus up to MAX_PAGES pages, each within the provider timeout.
    timeoutMs: PROVIDER_TIMEOUT_MS * (MAX_PAGES + 2),
    maxAttempts: 5,
    async run({ integrationId }, ctx) {
      const row = await createIntegrationsRepository({ db: deps.db }).byId(integrationId)
      if (!row || !row.eventTypes.includes('reviews')) return
      if (!row.isActive) throw new DeferJob(HOUR)
      const result = await syncStoreConnection(deps, row, ctx.signal)
      deps.logger.info('store reviews imported', { integration: row.id, provider: row.provider, ...result })
    },
  }
}
