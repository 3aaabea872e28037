import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DomainJobs } from '../../jobs/jobs.types'
import { STEAM_TIMEOUT_MS } from './steam.client'
import { enqueueSync, SYNC_KIND } from './steam.service'
import { MAX_PAGES_PER_SYNC, syncReviews } from './steam.sync'
import { steamApps } from './steam.table'

/** Hourly: one import job per app with sync on. The `steam.sync` job imports; a refusal is retried after 1, 5, 25 and 125 minutes. */
export const steamJobs = (deps: AppDeps): DomainJobs => ({
  schedules: [
    {
      name: 'steam.hourly-sync',
      pattern: '23 * * * *',
      yieldsToRequests: true,
      run: () => {
        const apps = deps.db.select({ id: steamApps.id }).from(steamApps).where(eq(steamApps.syncEnabled, true)).all()
        deps.db.transaction((tx) => {
          for (const a of apps) enqueueSync(deps, tx, a.id)
        })
      },
    },
  ],
  handlers: [
    {
      kind: SYNC_KIND,
      timeoutMs: MAX_PAGES_PER_SYNC * STEAM_TIMEOUT_MS,
      async run(payload: { steamAppId: string }, ctx) {
        const app = deps.db.select().from(steamApps).where(eq(steamApps.id, payload.steamAppId)).get()
        // Disconnected or turned off since it was queued.
        if (!app || !app.syncEnabled) return
        await syncReviews(deps, app, ctx.signal)
      },
    },
  ],
})
