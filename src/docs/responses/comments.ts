import * as z from 'zod'
import { CreatedIdResponse, isoDate, type OperationDocs } from './common'
import { ReportComment } from './reports'

export const CommentListResponse = z.array(ReportComment.extend({ updated_at: isoDate }))
export const CommentCreatedResponse = CreatedIdResponse

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type CommentListResponse = z.output<typeof CommentListResponse>
export type CommentCreatedResponse = z.output<typeof CommentCreatedResponse>

export const commentsDocs: OperationDocs = {
  'GET /api/projects/{slug}/bugs/{number}/comments': { data: CommentListResponse },
  'POST /api/projects/{slug}/bugs/{number}/comments': { status: 201, data: CommentCreatedResponse },
}
