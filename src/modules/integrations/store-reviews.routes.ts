import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { listStoreReviewsQuery, replyBody } from './store-reviews.schemas'
import { listStoreReviews, replyToReview } from './store-reviews.service'

const tags = ['Integrations']

/** Store reviews (spec 4.7): listing needs membership, replying `project.integrations`. */
export const storeReviewsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/store-reviews', ({ project, query }) => listStoreReviews(deps, project.id, query), {
      project: true,
      query: listStoreReviewsQuery,
      detail: { tags, summary: 'Imported store reviews, 50 a page, newest first; filter by store and highest rating' },
    })
    .post('/projects/:slug/store-reviews/:reviewId/reply', ({ project, user, params, body }) => replyToReview(deps, project, user.id, params.reviewId, body.body), {
      project: 'project.integrations',
      body: replyBody,
      detail: { tags, summary: 'Post the public reply to a store review, replacing an earlier one (Google Play: 350 characters at most)' },
    })
