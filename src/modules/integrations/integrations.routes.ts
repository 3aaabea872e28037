import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { hasPermission } from '../permissions/permissions.catalog'
import { createIntegrationBody, fileIssueBody, listIntegrationsQuery, targetsBody, updateIntegrationBody } from './integrations.schemas'
import {
  createIntegration,
  deleteIntegration,
  listIntegrationDeliveries,
  listIntegrations,
  listTargets,
  providersView,
  syncIntegration,
  testIntegration,
  updateIntegration,
} from './integrations.service'
import { fileReport, reportIssues } from './issue-links.service'
import { storeReviewsRoutes } from './store-reviews.routes'

const tags = ['Integrations']
const one = '/projects/:slug/integrations/:provider/:integrationId'

/** Integrations of spec 4.7: one set of routes for every provider. Listing needs membership, the rest `project.integrations`. */
export const integrationsRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .use(storeReviewsRoutes(deps))
    .get('/integrations/providers', () => providersView(), {
      auth: true,
      detail: { tags, summary: 'Every provider: events, default events, plan, the credential it needs and where to get it' },
    })
    .get(
      '/projects/:slug/integrations',
      ({ project, membership, query }) =>
        listIntegrations(deps, project.id, { provider: query.provider, withSecrets: hasPermission(membership.role, membership.permissionOverrides, 'project.integrations') }),
      {
        project: true,
        query: listIntegrationsQuery,
        detail: { tags, summary: 'The project’s connections (the credential is never returned: secret_hint; credential-like config fields as hints without project.integrations)' },
      },
    )
    .post(
      '/projects/:slug/integrations/:provider',
      async ({ project, account, user, params, body, set }) => {
        const created = await createIntegration(deps, project, account.plan, user.id, params.provider, body)
        set.status = 201
        return created
      },
      { project: 'project.integrations', body: createIntegrationBody, detail: { tags, summary: 'Connect a provider' } },
    )
    .post('/projects/:slug/integrations/:provider/targets', ({ project, params, body }) => listTargets(deps, project, params.provider, body), {
      project: 'project.integrations',
      body: targetsBody,
      detail: { tags, summary: 'Targets a pasted credential or a saved connection reaches; 502 when the tool refuses' },
    })
    .patch(one, ({ project, account, user, params, body }) => updateIntegration(deps, project, account.plan, user.id, params.provider, params.integrationId, body), {
      project: 'project.integrations',
      body: updateIntegrationBody,
      detail: { tags, summary: 'Change a connection; is_active false pauses it (retries wait), true resumes it' },
    })
    .delete(one, ({ project, user, params }) => deleteIntegration(deps, project, user.id, params.provider, params.integrationId), {
      project: 'project.integrations',
      detail: { tags, summary: 'Remove a connection' },
    })
    .post(`${one}/test`, ({ project, params }) => testIntegration(deps, project, params.provider, params.integrationId), {
      project: 'project.integrations',
      detail: { tags, summary: 'Post a test message (chat) or check the credential and target; 502 with the tool’s answer' },
    })
    .get(`${one}/deliveries`, ({ project, params }) => listIntegrationDeliveries(deps, project.id, params.provider, params.integrationId), {
      project: 'project.integrations',
      detail: { tags, summary: 'The 50 most recent deliveries with status, attempts and the provider’s answers' },
    })
    .post(`${one}/sync`, ({ project, params }) => syncIntegration(deps, project, params.provider, params.integrationId), {
      project: 'project.integrations',
      detail: { tags, summary: 'Run a store’s review import now (store providers only)' },
    })
    .get('/projects/:slug/bugs/:number/issues', ({ project, params }) => reportIssues(deps, project.id, params.number), {
      project: 'bugs.view',
      detail: { tags, summary: 'Items linked to the report in other tools, and the tracker connections to file it through' },
    })
    .post(
      '/projects/:slug/bugs/:number/issues',
      async ({ project, params, body, set }) => {
        const { created, link } = await fileReport(deps, project, params.number, body.integration_id)
        set.status = created ? 201 : 200
        return link
      },
      { project: 'bugs.edit', body: fileIssueBody, detail: { tags, summary: 'File the report in a tracker through a connection; filing again returns the existing link' } },
    )
