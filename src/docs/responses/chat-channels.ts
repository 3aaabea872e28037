import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'

export const ChatChannel = z.object({
  id: z.string(),
  provider: z.enum(['discord', 'slack']),
  channel_name: z.string(),
  webhook_url_hint: z.string().describe('Host and the last four characters; the URL itself is a credential, stored encrypted and never returned'),
  event_types: z.array(z.enum(['bug_created', 'bug_updated', 'comment_added'])),
  is_active: z.boolean().describe('False pauses the channel: nothing new is posted and queued retries wait'),
  created_at: isoDate,
  updated_at: isoDate,
})
export const ChatChannelListResponse = z.array(ChatChannel)
export const ChatChannelDelivery = z.object({
  id: z.string(),
  event: z.enum(['bug_created', 'bug_updated', 'comment_added', 'test']),
  is_test: z.boolean().describe('Posted by the test route (event `test`): not retried'),
  report_id: z.string().nullable(),
  status: z.enum(['pending', 'succeeded', 'failed']).describe('pending: waiting for its next try (after 1, 5, 25, 125 minutes) or held while the channel is paused'),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  response: z.string().nullable().describe("The provider's last answer (first 500 characters)"),
  created_at: isoDate,
  updated_at: isoDate,
})
export const ChatChannelDeliveryListResponse = z.array(ChatChannelDelivery)
export const ChatChannelTestResponse = z.object({
  status_code: z.number().int().describe("The provider's HTTP status"),
  message: z.string(),
  delivery_id: z.string().describe('The test post, listed among the deliveries with `is_test`'),
})

export type ChatChannel = z.output<typeof ChatChannel>
export type ChatChannelListResponse = z.output<typeof ChatChannelListResponse>
export type ChatChannelTestResponse = z.output<typeof ChatChannelTestResponse>
export type ChatChannelDeliveryListResponse = z.output<typeof ChatChannelDeliveryListResponse>

/** The same six operations for Discord and Slack. */
const channelDocs = (provider: string): OperationDocs => ({
  [`GET /api/projects/{slug}/webhooks/${provider}`]: { data: ChatChannelListResponse },
  [`POST /api/projects/{slug}/webhooks/${provider}`]: { status: 201, data: ChatChannel },
  [`PATCH /api/projects/{slug}/webhooks/${provider}/{channelId}`]: { data: ChatChannel },
  [`DELETE /api/projects/{slug}/webhooks/${provider}/{channelId}`]: { data: MessageResponse },
  [`POST /api/projects/{slug}/webhooks/${provider}/{channelId}/test`]: {
    data: ChatChannelTestResponse,
    errors: [502],
    description: "Posted once and recorded in the deliveries marked `is_test`; 502 (recorded too) with the provider's answer when it refuses or cannot be reached",
  },
  [`GET /api/projects/{slug}/webhooks/${provider}/{channelId}/deliveries`]: { data: ChatChannelDeliveryListResponse },
})

export const chatChannelsDocs: OperationDocs = { ...channelDocs('discord'), ...channelDocs('slack') }
