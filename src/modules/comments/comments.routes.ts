import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { createCommentBody } from './comments.schemas'
import { addComment, listComments } from './comments.service'

const tags = ['Comments']

export const commentsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/bugs/:number/comments', ({ project, params }) => listComments(deps, project, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: 'Comments of a report, internal ones included' },
    })
    .post(
      '/projects/:slug/bugs/:number/comments',
      async ({ project, user, params, body, set }) => {
        const created = await addComment(deps, { project, number: params.number, author: user }, body)
        set.status = 201
        return created
      },
      { project: 'comments.create', body: createCommentBody, detail: { tags, summary: 'Comment on a report; emits comment_added' } },
    )
