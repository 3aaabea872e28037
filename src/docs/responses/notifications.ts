import * as z from 'zod'
import { MessageResponse, type OperationDocs } from './common'

export const NotificationPreferencesResponse = z.object({
  email_bug_created: z.boolean(),
  email_bug_status: z.boolean(),
  email_bug_assigned: z.boolean(),
  email_bug_commented: z.boolean(),
  email_weekly_digest: z.boolean(),
})

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type NotificationPreferencesResponse = z.output<typeof NotificationPreferencesResponse>

export const notificationsDocs: OperationDocs = {
  'GET /api/notifications/preferences': { data: NotificationPreferencesResponse },
  'PUT /api/notifications/preferences': { data: NotificationPreferencesResponse },
  'GET /api/notifications/unsubscribe': { data: MessageResponse },
  'POST /api/notifications/unsubscribe': { data: MessageResponse },
}
