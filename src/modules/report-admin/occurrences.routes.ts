import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { mergeSchema, occurrencesQuerySchema, splitSchema } from '../ingest/ingest.schemas'
import { type MergeSelector, mergeReports } from './merge.service'
import { occurrenceDistribution } from '../ingest/occurrence-distribution'
import { badRequest } from '../../http/errors'
import { listOccurrences, listScreenshots, splitOccurrences } from '../ingest/occurrences.service'
import { reportTagFacet } from '../ingest/occurrence-tags'
import { reportTrend } from '../reports/report-trend.service'

const params = z.object({ slug: z.string(), number: z.string() })
const TAGS = ['Bug reports']

/** `numbers` or `filter`, exactly one. */
function mergeSelector(body: z.infer<typeof mergeSchema>): MergeSelector {
  if (body.numbers && body.filter) throw badRequest('send numbers or filter, not both')
  if (body.numbers) return { numbers: body.numbers }
  if (body.filter) return { filter: body.filter }
  throw badRequest('numbers (1 to 100 report numbers) or filter is required')
}

/** Team routes over a report's occurrences: read them, split some into a report, merge reports into one. */
export function occurrencesRoutes(deps: AppDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/bugs/:number/occurrences', ({ project, params, query }) => listOccurrences(deps, project, params.number, query.page, query.order, query.per_page), {
      project: 'bugs.view',
      params,
      query: occurrencesQuerySchema,
      detail: { tags: TAGS, summary: 'Occurrences of a report with their own evidence, the first submission included; 50 per page unless per_page says fewer' },
    })
    .get('/projects/:slug/bugs/:number/screenshots', ({ project, params }) => listScreenshots(deps, project, params.number), {
      project: 'bugs.view',
      params,
      detail: { tags: TAGS, summary: "Every screenshot a report's occurrences carry, newest first (50 at most, with the total), each with the occurrence that sent it" },
    })
    .get('/projects/:slug/bugs/:number/occurrences/distribution', ({ project, params }) => occurrenceDistribution(deps.db, project, params.number), {
      project: 'bugs.view',
      params,
      detail: { tags: TAGS, summary: "How a report's occurrences spread over game versions (newest first) and platforms (most first), 20 of each at most" },
    })
    .get('/projects/:slug/bugs/:number/trend', ({ project, params }) => reportTrend(deps.db, project, params.number, deps.clock.now()), {
      project: 'bugs.view',
      params,
      detail: { tags: TAGS, summary: 'Is it getting worse: events per hour (24 h) and per day (30 days) by event time, the last hour against the hourly average, and whether the report is escalating' },
    })
    .get('/projects/:slug/bugs/:number/tags', ({ project, params }) => reportTagFacet(deps.db, project, params.number), {
      project: 'bugs.view',
      params,
      detail: { tags: TAGS, summary: "The report's tag facet: each tag key its occurrences carried, with its top values and their counts (search one with `tag:key=value`)" },
    })
    .post(
      '/projects/:slug/bugs/:number/split',
      async ({ project, user, params, body, set }) => {
        const out = await splitOccurrences(deps, project, user.id, params.number, body.occurrence_ids)
        set.status = 201
        return out
      },
      { project: 'bugs.edit', params, body: splitSchema, detail: { tags: TAGS, summary: 'Move chosen occurrences (with their files) into a new report made from their own evidence' } },
    )
    .post('/projects/:slug/bugs/:number/merge', ({ project, user, params, body }) => mergeReports(deps, project, user.id, params.number, mergeSelector(body)), {
      project: 'bugs.edit',
      params,
      body: mergeSchema,
      detail: { tags: TAGS, summary: 'Fold other reports (by number, or every report a list filter selects) into this one as its occurrences (comments, labels, votes, files and links carried over); their numbers then redirect here' },
    })
}
