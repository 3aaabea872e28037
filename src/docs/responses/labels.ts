import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'

export const Label = z.object({ id: z.string(), name: z.string(), color: z.string().describe('Hex color, default #2E5BFF') })
export const LabelListResponse = z.array(Label.extend({ created_at: isoDate }))
export const LabelCreatedResponse = Label

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type LabelListResponse = z.output<typeof LabelListResponse>
export type LabelCreatedResponse = z.output<typeof LabelCreatedResponse>

export const labelsDocs: OperationDocs = {
  'GET /api/projects/{slug}/labels': { data: LabelListResponse },
  'POST /api/projects/{slug}/labels': { status: 201, data: LabelCreatedResponse, errors: [409] },
  'PATCH /api/projects/{slug}/labels/{labelId}': { data: MessageResponse, errors: [409] },
  'DELETE /api/projects/{slug}/labels/{labelId}': { data: MessageResponse },
  'POST /api/projects/{slug}/bugs/{number}/labels': { data: MessageResponse },
  'DELETE /api/projects/{slug}/bugs/{number}/labels/{labelId}': { data: MessageResponse },
}
