import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { STEAM_TIMEOUT_MS } from './steam.client'
import { enqueueSync, steam, SYNC_KIND } from './steam.service'
import { MAX_PAGES_PER_SYNC, syncReviews } from './steam.sync'

/** Hourly: one import job per app with sync on. The `steam.sync` job imports; a refusal is retried after 1, 5, 25 and 125 minutes. */
export const steamJobs = (deps: AppDeps): DomainJobs => ({
  schedules: [
    {
      name: 'steam.hourly-sync',
      pattern: '23 * * * *',
      yieldsToRequests: true,
      run: async () => {
        const ids = await steam(deps).syncingAppIds()
        await enqueueSync(deps, deps.db, ids)
      },
    },
  ],
  handlers: [
    {
      kind: SYNC_KIND,
      timeoutMs: MAX_PAGES_PER_SYNC * STEAM_TIMEOUT_MS,
      async run(payload: { steamAppId: string }, ctx) {
        const app = await steam(deps).appById(payload.steamAppId)
        // Disconnected or turned off since it was queued.
        if (!app || !app.syncEnabled) return
        await syncReviews(deps, app, ctx.signal)
      },
    },
  ],
})
