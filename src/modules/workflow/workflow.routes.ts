import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { createField, deleteField, listFields, readValues, setValue } from './custom-fields.service'
import { addDependency, readDependencies, removeDependency } from './dependencies.service'
import { setDueDate } from './due-dates.service'
import { rate, readRatings } from './satisfaction.service'
import { importItemsOf, importReports, listImports } from './import.service'
import { createTemplate, deleteTemplate, listTemplates, updateTemplate } from './templates.service'
import * as z from 'zod'
import { createCustomFieldBody, createTemplateBody, dependencyBody, dueDateBody, ratingBody, setCustomFieldBody, updateTemplateBody } from './workflow.schemas'

const tags = ['Report workflow']

/** Spec 4.3 (dependencies, due dates, custom field values, satisfaction) and 4.12 (templates, custom field definitions). */
export const workflowRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get('/projects/:slug/bugs/:number/dependencies', ({ project, params }) => readDependencies(deps, project.id, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: "A report's dependencies, each seen from this report (blocks or blocked_by)" },
    })
    .post(
      '/projects/:slug/bugs/:number/dependencies',
      ({ project, user, params, body, set }) => {
        set.status = 201
        return addDependency(deps, project, user.id, params.number, body)
      },
      { project: 'bugs.edit', body: dependencyBody, detail: { tags, summary: 'Link two reports (400 on self-links and cycles, 409 on duplicates)' } },
    )
    .delete(
      '/projects/:slug/dependencies/:depId',
      async ({ project, user, params }) => {
        await removeDependency(deps, project, user.id, params.depId)
        return { message: 'Dependency removed' }
      },
      { project: 'bugs.edit', detail: { tags, summary: 'Remove a dependency' } },
    )
    .patch('/projects/:slug/bugs/:number/due-date', ({ project, user, params, body }) => setDueDate(deps, project, user.id, params.number, body.due_date), {
      project: 'bugs.edit',
      body: dueDateBody,
      detail: { tags, summary: 'Set (ISO date or date-time) or clear (null) the due date' },
    })
    .get('/projects/:slug/custom-fields', ({ project }) => listFields(deps, project.id), {
      project: 'bugs.view',
      detail: { tags, summary: 'Custom field definitions' },
    })
    .post(
      '/projects/:slug/custom-fields',
      ({ project, user, body, set }) => {
        set.status = 201
        return createField(deps, { project, userId: user.id }, body)
      },
      { project: 'project.settings', body: createCustomFieldBody, detail: { tags, summary: 'Define a custom field (options for select types; 409 on a taken name)' } },
    )
    .delete(
      '/projects/:slug/custom-fields/:fieldId',
      async ({ project, user, params }) => {
        await deleteField(deps, { project, userId: user.id }, params.fieldId)
        return { message: 'Custom field deleted' }
      },
      { project: 'project.settings', detail: { tags, summary: 'Delete a custom field and its values' } },
    )
    .get('/projects/:slug/bugs/:number/custom-fields', ({ project, params }) => readValues(deps, project.id, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: "A report's custom field values" },
    })
    .post('/projects/:slug/bugs/:number/custom-fields', ({ project, user, params, body }) => setValue(deps, { project, userId: user.id }, params.number, body), {
      project: 'bugs.edit',
      body: setCustomFieldBody,
      detail: { tags, summary: 'Set (or with null clear) a custom field value, checked against its type' },
    })
    .get('/projects/:slug/templates', ({ project }) => listTemplates(deps, project.id), {
      project: 'bugs.view',
      detail: { tags, summary: 'Report templates' },
    })
    .post(
      '/projects/:slug/templates',
      ({ project, user, body, set }) => {
        set.status = 201
        return createTemplate(deps, { project, userId: user.id }, body)
      },
      { project: 'project.settings', body: createTemplateBody, detail: { tags, summary: 'Create a report template (409 on a taken name)' } },
    )
    .patch('/projects/:slug/templates/:templateId', ({ project, user, params, body }) => updateTemplate(deps, { project, userId: user.id }, params.templateId, body), {
      project: 'project.settings',
      body: updateTemplateBody,
      detail: { tags, summary: 'Change a report template' },
    })
    .delete(
      '/projects/:slug/templates/:templateId',
      async ({ project, user, params }) => {
        await deleteTemplate(deps, { project, userId: user.id }, params.templateId)
        return { message: 'Template deleted' }
      },
      { project: 'project.settings', detail: { tags, summary: 'Delete a report template' } },
    )
    .get('/projects/:slug/bugs/:number/satisfaction', ({ project, params }) => readRatings(deps, project.id, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: 'Satisfaction ratings of a report with their average' },
    })
    .post(
      '/projects/:slug/bugs/:number/satisfaction',
      async ({ project, user, params, body, set }) => {
        const result = await rate(deps, project.id, user.id, params.number, body)
        set.status = result.is_new ? 201 : 200
        return result
      },
      { project: 'bugs.view', body: ratingBody, detail: { tags, summary: 'Rate a report 1 to 5 (a second rating by the same rater replaces the first)' } },
    )
    .post(
      '/projects/:slug/import',
      ({ project, user, body }) => importReports(deps, { project, userId: user.id }, importItemsOf(body)),
      {
        project: 'bugs.create',
        // CSV bodies arrive as text; JSON goes through the usual (depth-capped) parser.
        parse: ({ request, contentType }) => (contentType.startsWith('text/csv') ? request.text() : undefined),
        detail: {
          tags,
          summary: 'Import up to 1,000 reports (JSON {bugs:[…]} or text/csv in our, GitHub’s or Jira’s export layout); idempotent on external_id',
        },
      },
    )
    .get('/projects/:slug/imports', ({ project, query }) => listImports(deps, project.id, query.page), {
      project: 'bugs.view',
      query: z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) }),
      detail: { tags, summary: 'Imported reports with their external links, 50 a page' },
    })
