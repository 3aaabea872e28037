import * as z from 'zod'
import { CreatedIdResponse, isoDate, MessageResponse, type OperationDocs } from './common'

export const Webhook = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string().describe('The stored URL with webhooks.manage; for other members without credentials, query or fragment'),
  secret: z.string().nullable().optional().describe('The signing secret; only with webhooks.manage'),
  secret_hint: z.string().nullable().describe('`…` and the last four characters of the secret; null without one'),
  event_types: z.string().describe('Comma-separated: bug_created, bug_updated, comment_added'),
  created_at: isoDate,
})
export const WebhookListResponse = z.array(Webhook)
export const WebhookTestResponse = z.object({
  status_code: z.number().int(),
  message: z.string(),
  signed: z.boolean(),
})
export const WebhookDelivery = z.object({
  id: z.string(),
  event: z.string(),
  is_test: z.boolean().describe('A test event recorded by an earlier version (the test route records nothing now)'),
  status: z.string(),
  attempt_count: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: isoDate.nullable(),
  created_at: isoDate.nullable(),
  updated_at: isoDate.nullable(),
  payload: z.unknown().describe('The JSON body that was delivered: {event, timestamp, data}'),
  attempts: z.array(
    z.object({
      attempt: z.number().int(),
      status_code: z.number().int().nullable(),
      duration_ms: z.number().nullable(),
      error: z.string().nullable(),
      response_snippet: z.string().nullable(),
      created_at: isoDate.nullable(),
    }),
  ),
})
export const WebhookDeliveryListResponse = z.array(WebhookDelivery)

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type WebhookListResponse = z.output<typeof WebhookListResponse>
export type WebhookTestResponse = z.output<typeof WebhookTestResponse>
export type WebhookDeliveryListResponse = z.output<typeof WebhookDeliveryListResponse>

export const webhooksDocs: OperationDocs = {
  'GET /api/projects/{slug}/webhooks/generic': { data: WebhookListResponse },
  'POST /api/projects/{slug}/webhooks/generic': { status: 201, data: CreatedIdResponse },
  'DELETE /api/projects/{slug}/webhooks/generic/{webhookId}': { data: MessageResponse },
  'POST /api/projects/{slug}/webhooks/generic/{webhookId}/test': {
    data: WebhookTestResponse,
    errors: [502],
    description: 'Sent once, signed when the webhook has a secret; not recorded in the deliveries, not retried; 502 when the URL cannot be reached',
  },
  'GET /api/projects/{slug}/webhooks/generic/{webhookId}/deliveries': { data: WebhookDeliveryListResponse },
}
