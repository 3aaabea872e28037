import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import { hasPermission } from '../permissions/permissions.catalog'
import { createWebhookBody } from './webhooks.schemas'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTestEvent } from './webhooks.service'

const tags = ['Webhooks']

/** Generic outgoing webhooks of spec 4.6. */
export const webhooksRoutes = (deps: AppDeps) =>
  new Elysia()
    .use(authPlugin(deps))
    .get(
      '/projects/:slug/webhooks/generic',
      ({ project, membership }) => listWebhooks(deps, project.id, { withSecrets: hasPermission(membership.role, membership.permissionOverrides, 'webhooks.manage') }),
      {
        project: true,
        detail: {
          tags,
          summary: 'List webhooks (with their secrets for webhooks.manage)',
          description:
            'With webhooks.manage each webhook comes with its stored `url` and `secret`; other members get `url` without credentials, query or fragment, and `secret_hint` (`…` and its last four characters) only.',
        },
      },
    )
    .post(
      '/projects/:slug/webhooks/generic',
      async ({ project, user, body, set }) => {
        const created = await createWebhook(deps, project, user.id, body)
        set.status = 201
        return created
      },
      { project: 'webhooks.manage', body: createWebhookBody, detail: { tags, summary: 'Create a webhook' } },
    )
    .delete('/projects/:slug/webhooks/generic/:webhookId', ({ project, user, params }) => deleteWebhook(deps, project, user.id, params.webhookId), {
      project: 'webhooks.manage',
      detail: { tags, summary: 'Delete a webhook' },
    })
    .post('/projects/:slug/webhooks/generic/:webhookId/test', ({ project, params }) => sendTestEvent(deps, project, params.webhookId), {
      project: 'webhooks.manage',
      detail: { tags, summary: 'Send a test event now' },
    })
    // Delivered payloads carry report content, internal comments included: only webhook managers read them.
    .get('/projects/:slug/webhooks/generic/:webhookId/deliveries', ({ project, params }) => listDeliveries(deps, project.id, params.webhookId), {
      project: 'webhooks.manage',
      detail: { tags, summary: 'The 50 most recent deliveries, newest first, with their attempts' },
    })
