import * as z from 'zod'

export const CHAT_CHANNEL_PROVIDERS = ['discord', 'slack'] as const
export type ChatChannelProvider = (typeof CHAT_CHANNEL_PROVIDERS)[number]
export const CHANNEL_EVENTS = ['bug_created', 'bug_updated', 'comment_added'] as const

/** An array of event names, or a comma-separated string of them (as generic webhooks take). */
const eventTypes = z.union([z.array(z.enum(CHANNEL_EVENTS)).min(1).max(3), z.string().max(200)])

export const createChannelBody = z.object({
  webhook_url: z.string().trim().min(1).max(2000),
  channel_name: z.string().trim().min(1).max(100).optional(),
  event_types: eventTypes.optional(),
  is_active: z.boolean().optional(),
})
export type CreateChannelBody = z.infer<typeof createChannelBody>

export const updateChannelBody = createChannelBody.partial()
export type UpdateChannelBody = z.infer<typeof updateChannelBody>
