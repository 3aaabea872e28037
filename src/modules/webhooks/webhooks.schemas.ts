import * as z from 'zod'

export const WEBHOOK_EVENTS = ['bug_created', 'bug_updated', 'comment_added'] as const
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

export const createWebhookBody = z.object({
  url: z.string().trim().min(1).max(2000),
  name: z.string().trim().min(1).max(100).optional(),
  /** Comma-separated (spec); an array of names is accepted too. */
  event_types: z.union([z.string().max(200), z.array(z.string().max(50)).max(10)]).optional(),
  secret: z.string().max(200).nullable().optional(),
})
export type CreateWebhookBody = z.infer<typeof createWebhookBody>

