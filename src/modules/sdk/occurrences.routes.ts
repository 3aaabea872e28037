import { Elysia } from 'elysia'
import * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { listOccurrences, splitOccurrences } from './occurrences.service'
import { occurrencesQuerySchema, splitSchema } from './sdk.schemas'

const params = z.object({ slug: z.string(), number: z.coerce.number().int().positive() })
const TAGS = ['Bug reports']

/** Team routes over the submissions stacked onto a report. */
export function occurrencesRoutes(deps: AppDeps) {
  return new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/bugs/:number/occurrences', ({ project, params, query }) => listOccurrences(deps, project, params.number, query.page), {
      project: 'bugs.view',
      params,
      query: occurrencesQuerySchema,
      detail: { tags: TAGS, summary: 'Occurrences of a report, 50 per page, newest first' },
    })
    .post(
      '/projects/:slug/bugs/:number/split',
      ({ project, user, params, body, set }) => {
        const out = splitOccurrences(deps, project, user.id, params.number, body.occurrence_ids)
        set.status = 201
        return out
      },
      { project: 'bugs.edit', params, body: splitSchema, detail: { tags: TAGS, summary: 'Move chosen occurrences into a new report' } },
    )
}
