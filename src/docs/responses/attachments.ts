import * as z from 'zod'
import { isoDate, type OperationDocs } from './common'

export const Attachment = z.object({
  id: z.string(),
  file_name: z.string(),
  file_url: z.string(),
  file_size: z.number().int(),
  mime_type: z.string().nullable(),
  created_at: isoDate,
})
export const AttachmentListResponse = z.array(Attachment)
export const AttachmentCreatedResponse = Attachment

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type AttachmentListResponse = z.output<typeof AttachmentListResponse>
export type AttachmentCreatedResponse = z.output<typeof AttachmentCreatedResponse>

export const attachmentsDocs: OperationDocs = {
  'GET /api/projects/{slug}/bugs/{number}/attachments': { data: AttachmentListResponse },
  'POST /api/projects/{slug}/bugs/{number}/attachments': { status: 201, data: AttachmentCreatedResponse },
  'GET /api/files/{key}': { data: z.string(), content: 'file', description: 'The stored file (screenshot, attachment, replay or logo), not enveloped' },
}
