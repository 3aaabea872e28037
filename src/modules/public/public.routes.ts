import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { clientIp } from '../../http/client-ip'
import { settingsOf } from '../settings/settings.service'
import { reportNumberParams, roadmapQuery, similarQuery, trackerQuery, voteBody, widgetVoteBody } from './public.schemas'
import { listTracker, projectBySlug, trackerBug } from './public.service'
import { roadmapOf } from './roadmap.service'
import { trackerSuggestions, widgetSuggestions } from './suggestions.service'
import { voterOf } from './voter-cookie'
import { voteOnRoadmap, voteOnTracker } from './votes.service'

const tags = ['Public']
const voteDoc =
  'Optional body {player_id}. The voter is, in this order: the player id; the `glitchbox_voter` cookie the public pages set ' +
  '(a browser on those pages); the client IP (stored only as a keyed hash). One vote per voter: ' +
  'answers 200 {upvotes, is_new} both for a new vote (is_new true) and a repeat (is_new false, count unchanged). ' +
  'One client address (an IPv6 /64) adds at most 3 votes with distinct player_id values, and at most 20 from distinct voter cookies, ' +
  'to a report in 24 hours; further ones answer like a repeat.'
const similarDoc = 'Up to 5 public reports whose titles share words with `title`, best match first, each with its public URL; `can_vote` when the tracker takes upvotes.'

/** Public pages (no credential): tracker, roadmap, votes, report-form suggestions and branding. */
export const publicRoutes = (deps: AppDeps) => {
  const voter = (request: Request, server: Parameters<typeof clientIp>[1], body: { player_id?: string } | undefined) =>
    voterOf(deps, request, clientIp(request, server, deps.config.trustProxy), body?.player_id)
  return new Elysia()
    .use(authPlugin(deps))
    .get('/tracker/:slug', ({ params, query }) => listTracker(deps, params.slug, query), {
      query: trackerQuery,
      detail: { tags, summary: 'Public bug list, 25 per page, most upvoted first; 404 unless the tracker is enabled' },
    })
    .get('/tracker/:slug/similar', ({ params, query }) => trackerSuggestions(deps, deps.config, params.slug, query.title), {
      query: similarQuery,
      detail: { tags, summary: 'Public reports like a title being typed (the report form suggestions); 404 unless the tracker is enabled', description: similarDoc },
    })
    .get('/tracker/:slug/bugs/:number', ({ params }) => trackerBug(deps, params.slug, params.number), {
      params: reportNumberParams,
      detail: { tags, summary: 'One public bug with its public comments' },
    })
    .post(
      '/tracker/:slug/bugs/:number/vote',
      async ({ params, body, request, server }) => voteOnTracker(deps, params.slug, params.number, await voter(request, server, body)),
      {
        params: reportNumberParams,
        body: voteBody,
        detail: { tags, summary: 'Upvote a bug on the public tracker (403 when upvotes are off)', description: voteDoc },
      },
    )
    .get('/roadmap/:slug', ({ params, query }) => roadmapOf(deps, params.slug, query), {
      query: roadmapQuery,
      detail: { tags, summary: 'Roadmap settings and the reports put on it, one paged column (20 a page) per shown status; 404 unless enabled' },
    })
    .post(
      '/roadmap/:slug/bugs/:number/vote',
      async ({ params, body, request, server }) => voteOnRoadmap(deps, params.slug, params.number, await voter(request, server, body)),
      {
        params: reportNumberParams,
        body: voteBody,
        detail: { tags, summary: 'Upvote a bug on the public roadmap (403 unless it shows upvotes)', description: voteDoc },
      },
    )
    .get('/branding/:slug', async ({ params }) => {
      const project = await projectBySlug(deps, params.slug)
      return settingsOf(deps.db, project.id, 'branding')
    }, {
      detail: { tags, summary: 'Company name, logo, colors and support email of a project' },
    })
    // The widget's report form, by SDK key: it knows the key, not the tracker's slug.
    .get('/bugs/similar', ({ project, query }) => widgetSuggestions(deps, deps.config, project, query.title), {
      apiKey: true,
      query: similarQuery,
      detail: { tags, summary: "Public reports like a title being typed, for the widget's form (none while the tracker is off)", description: similarDoc },
    })
    .post(
      '/bugs/vote',
      async ({ project, body, request, server }) => voteOnTracker(deps, project.slug, body.report_number, await voter(request, server, body)),
      {
        apiKey: true,
        body: widgetVoteBody,
        detail: {
          tags,
          summary: "Upvote a public report from the widget's form instead of filing it again (404 unless the tracker shows it, 403 when upvotes are off)",
          description: voteDoc,
        },
      },
    )
}
