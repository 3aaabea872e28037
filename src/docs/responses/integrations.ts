import * as z from 'zod'
import { CreatedIdResponse, isoDate, MessageResponse, type OperationDocs } from './common'

const priority = z.enum(['critical', 'high', 'medium', 'low'])

export const IntegrationProvider = z.object({
  key: z.string(),
  name: z.string(),
  kind: z.enum(['chat', 'alerting', 'tracker', 'crash_link', 'store']),
  events: z.array(z.string()),
  default_events: z.array(z.string()),
  plan: z.string().optional().describe('Lowest plan carrying it; absent when every plan does'),
  default_min_priority: priority,
  credential: z.object({ label: z.string(), help: z.string(), url: z.string().describe('Where to get the credential') }),
  config: z.record(z.string(), z.string()).describe('Config fields the connection takes, each with a description'),
  available: z.boolean().describe('False for providers this server cannot connect yet'),
})
export const IntegrationProviderListResponse = z.array(IntegrationProvider)

export const Integration = z.object({
  id: z.string(),
  provider: z.string(),
  provider_name: z.string(),
  kind: z.string().nullable(),
  name: z.string(),
  secret_hint: z.string().describe('`…` and the credential’s last four characters; the credential itself is never returned'),
  event_types: z.array(z.string()),
  min_priority: priority,
  config: z.record(z.string(), z.unknown()),
  is_active: z.boolean(),
  created_at: isoDate,
  updated_at: isoDate,
})
export const IntegrationListResponse = z.array(Integration)
export const IntegrationTargetListResponse = z.array(z.object({ id: z.string(), name: z.string(), group: z.string().optional() }))
export const IntegrationDeliveryListResponse = z.array(
  z.object({
    id: z.string(),
    event: z.string(),
    is_test: z.boolean().describe('Sent by the test route (event and action `test`): not retried'),
    action: z.string().describe('post, trigger, resolve, link, file, move or test'),
    report_id: z.string().nullable(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    response: z.string().nullable().describe('The provider’s last answer (first 500 characters)'),
    next_attempt_at: isoDate.nullable(),
    created_at: isoDate.nullable(),
    updated_at: isoDate.nullable(),
    attempts: z.array(
      z.object({ attempt: z.number().int(), status_code: z.number().int().nullable(), duration_ms: z.number(), error: z.string().nullable(), response: z.string().nullable(), created_at: isoDate.nullable() }),
    ),
  }),
)
export const IntegrationTestResponse = z.object({ message: z.string(), delivery_id: z.string().describe('The test, listed among the deliveries with `is_test`') })
export const IntegrationSyncResponse = z.object({ fetched: z.number().int(), new: z.number().int(), filed: z.number().int() })
export const IssueLink = z.object({
  id: z.string(),
  integration_id: z.string().nullable(),
  provider: z.string(),
  provider_name: z.string(),
  external_id: z.string(),
  url: z.string(),
  title: z.string(),
  state: z.string().nullable(),
  created_at: isoDate,
})
export const ReportIssuesResponse = z.object({
  links: z.array(IssueLink),
  trackers: z.array(z.object({ id: z.string(), provider: z.string(), provider_name: z.string(), name: z.string(), target: z.string() })),
})

export const StoreReview = z.object({
  id: z.string().describe('Our id of the review (reply to it with this)'),
  provider: z.enum(['google_play', 'app_store']),
  integration_id: z.string().nullable().describe('The connection that imported it'),
  store_review_id: z.string().describe('The store’s id of the review'),
  author: z.string().nullable(),
  rating: z.number().int().min(1).max(5),
  title: z.string().nullable(),
  body: z.string(),
  language: z.string().nullable(),
  app_version: z.string().nullable(),
  device: z.string().nullable(),
  territory: z.string().nullable(),
  reviewed_at: isoDate,
  reply: z.object({ body: z.string(), replied_at: isoDate.nullable(), state: z.string().nullable().describe('App Store: PENDING_PUBLISH or PUBLISHED') }).nullable(),
  report_number: z.number().int().nullable().describe('The report review_bugs filed for it'),
  created_at: isoDate,
})
export const StoreReviewListResponse = z.array(StoreReview)
export type StoreReviewListResponse = z.output<typeof StoreReviewListResponse>

export type IntegrationProviderListResponse = z.output<typeof IntegrationProviderListResponse>
export type IntegrationListResponse = z.output<typeof IntegrationListResponse>
export type IntegrationTargetListResponse = z.output<typeof IntegrationTargetListResponse>
export type IntegrationDeliveryListResponse = z.output<typeof IntegrationDeliveryListResponse>
export type ReportIssuesResponse = z.output<typeof ReportIssuesResponse>
export type IssueLink = z.output<typeof IssueLink>

const one = '/api/projects/{slug}/integrations/{provider}/{integrationId}'
export const integrationsDocs: OperationDocs = {
  'GET /api/integrations/providers': { data: IntegrationProviderListResponse },
  'GET /api/projects/{slug}/integrations': { data: IntegrationListResponse },
  'POST /api/projects/{slug}/integrations/{provider}': { status: 201, data: CreatedIdResponse },
  'POST /api/projects/{slug}/integrations/{provider}/targets': { data: IntegrationTargetListResponse, errors: [502] },
  [`PATCH ${one}`]: { data: MessageResponse },
  [`DELETE ${one}`]: { data: MessageResponse },
  [`POST ${one}/test`]: { data: IntegrationTestResponse, errors: [502], description: 'Recorded in the deliveries marked `is_test` (a refusal too), not retried' },
  [`GET ${one}/deliveries`]: { data: IntegrationDeliveryListResponse },
  [`POST ${one}/sync`]: { data: IntegrationSyncResponse, errors: [502] },
  'GET /api/projects/{slug}/store-reviews': { data: StoreReviewListResponse },
  'POST /api/projects/{slug}/store-reviews/{reviewId}/reply': { data: MessageResponse, description: 'Reply posted, or Reply replaced', errors: [502] },
  'GET /api/projects/{slug}/bugs/{number}/issues': { data: ReportIssuesResponse },
  'POST /api/projects/{slug}/bugs/{number}/issues': {
    status: 201,
    data: IssueLink,
    alsoStatus: { status: 200, description: 'Filed before through this connection: the existing link' },
    errors: [502],
  },
}
