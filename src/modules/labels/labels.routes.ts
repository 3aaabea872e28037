import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { applyLabelBody, createLabelBody, updateLabelBody } from './labels.schemas'
import { applyLabel, createLabel, deleteLabel, listLabels, removeLabel, updateLabel } from './labels.service'

const tags = ['Labels']

export const labelsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/labels', ({ project }) => listLabels(deps, project.id), {
      project: true,
      detail: { tags, summary: 'Labels of the project' },
    })
    .post(
      '/projects/:slug/labels',
      async ({ project, user, body, set }) => {
        const label = await createLabel(deps, { project, userId: user.id }, body)
        set.status = 201
        return label
      },
      { project: 'labels.manage', body: createLabelBody, detail: { tags, summary: 'Create a label (409 when the name exists)' } },
    )
    .patch(
      '/projects/:slug/labels/:labelId',
      async ({ project, user, params, body }) => {
        await updateLabel(deps, { project, userId: user.id }, params.labelId, body)
        return { message: 'Label updated' }
      },
      { project: 'labels.manage', body: updateLabelBody, detail: { tags, summary: 'Rename or recolor a label' } },
    )
    .delete(
      '/projects/:slug/labels/:labelId',
      async ({ project, user, params }) => {
        await deleteLabel(deps, { project, userId: user.id }, params.labelId)
        return { message: 'Label deleted' }
      },
      { project: 'labels.manage', detail: { tags, summary: 'Delete a label and take it off every report' } },
    )
    .post(
      '/projects/:slug/bugs/:number/labels',
      async ({ project, user, params, body }) => {
        await applyLabel(deps, { project, userId: user.id }, params.number, body.label_id)
        return { message: 'Label added' }
      },
      { project: 'labels.manage', body: applyLabelBody, detail: { tags, summary: 'Put a label on a report' } },
    )
    .delete(
      '/projects/:slug/bugs/:number/labels/:labelId',
      async ({ project, user, params }) => {
        await removeLabel(deps, { project, userId: user.id }, params.number, params.labelId)
        return { message: 'Label removed' }
      },
      { project: 'labels.manage', detail: { tags, summary: 'Take a label off a report' } },
    )
