import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { dashboard, listReviews, refundSignals, reviewHistory, syncStats } from './steam.reads'
import { connectSteamBody, daysQuery, reviewsQuery, updateSteamBody } from './steam.schemas'
import { connectSteam, deleteSteam, steamAppOf, steamView, syncNow, updateSteam } from './steam.service'

const tags = ['Steam']
const base = '/projects/:slug/steam'

/** The game-store routes: a project's Steam app, its imported public reviews and what they say. */
export const steamRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get(base, async ({ project }) => steamView(await steamAppOf(deps, project.id)), { project: true, detail: { tags, summary: 'The connected Steam app (404 when none)' } })
    .post(
      base,
      async ({ project, user, body, set }) => {
        const created = await connectSteam(deps, project, user.id, body)
        set.status = 201
        return created
      },
      { project: 'project.integrations', body: connectSteamBody, detail: { tags, summary: 'Connect a Steam app by its app id; the first import is queued' } },
    )
    .patch(base, ({ project, body }) => updateSteam(deps, project, body), {
      project: 'project.integrations',
      body: updateSteamBody,
      detail: { tags, summary: 'Turn the hourly review import on or off' },
    })
    .delete(base, ({ project, user }) => deleteSteam(deps, project, user.id), { project: 'project.integrations', detail: { tags, summary: 'Disconnect Steam' } })
    .post(`${base}/sync`, ({ project }) => syncNow(deps, project.id), {
      project: 'project.integrations',
      detail: { tags, summary: "Import new reviews now from Steam's public review API" },
    })
    .get(`${base}/dashboard`, ({ project, query }) => dashboard(deps, project.id, deps.clock.now(), query.days), {
      project: true,
      query: daysQuery,
      detail: { tags, summary: 'Review score and positive share per day (days: 1-365, default 30)' },
    })
    .get(`${base}/reviews`, ({ project, query }) => listReviews(deps, project.id, query), {
      project: true,
      query: reviewsQuery,
      detail: { tags, summary: 'Imported reviews, 50 a page, newest first; filter positive or negative' },
    })
    .get(`${base}/review-history`, ({ project, query }) => reviewHistory(deps, project.id, deps.clock.now(), query.days), {
      project: true,
      query: daysQuery,
      detail: { tags, summary: 'Reviews posted per day, positive and negative (days: 1-365, default 30)' },
    })
    .get(`${base}/refund-signals`, ({ project }) => refundSignals(deps, project.id), {
      project: true,
      detail: { tags, summary: 'Negative reviews written with under 2 hours played, and reviews mentioning a refund' },
    })
    .get(`${base}/sync-stats`, ({ project }) => syncStats(deps, project.id), {
      project: true,
      detail: { tags, summary: 'Last import (when, fetched, new, error) and error count' },
    })
