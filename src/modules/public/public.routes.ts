import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { clientIp } from '../../http/client-ip'
import { readSettings } from '../settings/settings.service'
import { reportNumberParams, trackerQuery, voteBody } from './public.schemas'
import { listTracker, projectBySlug, trackerBug } from './public.service'
import { roadmapOf } from './roadmap.service'
import { voteOnRoadmap, voteOnTracker } from './votes.service'

const tags = ['Public']
const voteDoc =
  'Optional body {player_id}; without it the voter is the client IP (stored only as a keyed hash). One vote per voter: ' +
  'answers 200 {upvotes, is_new} both for a new vote (is_new true) and a repeat (is_new false, count unchanged). ' +
  'One client address (an IPv6 /64) adds at most 3 votes with distinct player_id values to a report in 24 hours; ' +
  'further ones answer like a repeat.'

/** Public pages (no credential): tracker, roadmap, votes and branding. */
export const publicRoutes = (deps: AppDeps) => {
  const voter = (request: Request, server: Parameters<typeof clientIp>[1], body: z.infer<typeof voteBody>) => ({
    playerId: body?.player_id,
    ip: clientIp(request, server, deps.config.trustProxy),
  })
  return new Elysia()
    .get('/tracker/:slug', ({ params, query }) => listTracker(deps.db, params.slug, query), {
      query: trackerQuery,
      detail: { tags, summary: 'Public bug list, 25 per page, most upvoted first; 404 unless the tracker is enabled' },
    })
    .get('/tracker/:slug/bugs/:number', ({ params }) => trackerBug(deps.db, params.slug, params.number), {
      params: reportNumberParams,
      detail: { tags, summary: 'One public bug with its public comments' },
    })
    .post(
      '/tracker/:slug/bugs/:number/vote',
      ({ params, body, request, server }) => voteOnTracker(deps, params.slug, params.number, voter(request, server, body)),
      {
        params: reportNumberParams,
        body: voteBody,
        detail: { tags, summary: 'Upvote a bug on the public tracker (403 when upvotes are off)', description: voteDoc },
      },
    )
    .get('/roadmap/:slug', ({ params }) => roadmapOf(deps.db, params.slug), {
      detail: { tags, summary: 'Roadmap settings and public bugs per shown status; 404 unless enabled' },
    })
    .post(
      '/roadmap/:slug/bugs/:number/vote',
      ({ params, body, request, server }) => voteOnRoadmap(deps, params.slug, params.number, voter(request, server, body)),
      {
        params: reportNumberParams,
        body: voteBody,
        detail: { tags, summary: 'Upvote a bug on the public roadmap (403 unless it shows upvotes)', description: voteDoc },
      },
    )
    .get('/branding/:slug', ({ params }) => readSettings(deps.db, projectBySlug(deps.db, params.slug).id, 'branding'), {
      detail: { tags, summary: 'Company name, logo, colors and support email of a project' },
    })
}
