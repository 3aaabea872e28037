import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs, uuid } from './common'

export const ReportStatus = z.enum(['open', 'in_progress', 'resolved', 'closed', 'wont_fix'])
export const ReportPriority = z.enum(['critical', 'high', 'medium', 'low'])
export const ReportCategory = z.enum(['crash', 'visual', 'gameplay', 'performance', 'audio', 'ui', 'network', 'other'])
export const ReportLabel = z.object({ id: z.string(), name: z.string(), color: z.string() })

const SlaPart = z.object({ state: z.enum(['ok', 'at_risk', 'breached', 'met']), due_at: isoDate, met_at: isoDate.nullable() }).nullable()
export const ReportSla = z
  .object({ state: z.enum(['ok', 'at_risk', 'breached']), response: SlaPart, resolve: SlaPart })
  .nullable()
  .describe('The SLA clock: at_risk in the last 20% of a window, breached past due; null when no rule applied')

export const ReportListItem = z.object({
  id: uuid,
  report_number: z.number().int(),
  title: z.string(),
  status: ReportStatus,
  priority: ReportPriority,
  category: ReportCategory,
  platform: z.string().nullable(),
  game_version: z.string().nullable(),
  assigned_to: z.string().nullable(),
  is_private: z.boolean(),
  error_type: z.string().describe('Exception or error class read from the title and stack trace; empty when none'),
  source: z.enum(['user', 'system']),
  upvotes: z.number().int(),
  occurrences: z.number().int(),
  labels: z.array(ReportLabel),
  created_at: isoDate,
  updated_at: isoDate,
  sla: ReportSla,
})

export const ReportListResponse = z.object({
  bugs: z.array(ReportListItem),
  total: z.number().int(),
  total_capped: z.boolean().describe('True when `total` stopped counting at a cap (very large matches)'),
  page: z.number().int(),
  limit: z.number().int(),
  total_pages: z.number().int(),
})

export const ReportCreatedResponse = z.object({ id: uuid, report_number: z.number().int() })

export const Report = ReportListItem.extend({
  description: z.string(),
  os_info: z.string().nullable(),
  device_info: z.string().nullable(),
  steps_to_reproduce: z.string().nullable(),
  expected_behavior: z.string().nullable(),
  actual_behavior: z.string().nullable(),
  sentiment_score: z.number().nullable(),
  sentiment_level: z.enum(['positive', 'neutral', 'negative']).nullable(),
  reporter_name: z.string().nullable(),
  reporter_email: z.string().nullable(),
  player_id: z.string().nullable(),
  steam_id: z.string().nullable(),
  metadata: z.unknown().describe('What the game sent as metadata (any JSON), or null'),
  screenshot_url: z.string().nullable(),
  created_by: z.string().nullable(),
  due_date: isoDate.nullable(),
})

export const ReportComment = z.object({
  id: uuid,
  body: z.string(),
  is_internal: z.boolean(),
  author_id: z.string().nullable(),
  author_name: z.string().nullable(),
  created_at: isoDate,
})

export const LinkedReport = z.object({ id: z.string(), number: z.number().int(), title: z.string(), status: ReportStatus })
export const Dependency = z.object({
  id: z.string(),
  relationship: z.enum(['blocks', 'blocked_by']).describe('Seen from the report in the path'),
  report: LinkedReport,
  created_at: isoDate,
})
export const CustomFieldValue = z.object({ field_id: z.string(), name: z.string(), field_type: z.string(), value: z.unknown().describe('Typed by field_type; null when unset') })

export const ReportDetailResponse = z.object({
  bug: Report.extend({
    perf_snapshot_count: z.number().int().describe('Performance snapshots the game sent with this report'),
    replay_count: z.number().int().describe('Session replays of this report'),
    blocked_by: z.array(LinkedReport).describe('Unresolved reports blocking this one'),
  }),
  comments: z.array(ReportComment),
  labels: z.array(ReportLabel),
  dependencies: z.array(Dependency),
  custom_fields: z.array(CustomFieldValue),
})
export const BulkUpdateResponse = z.object({ updated: z.number().int() })
export const BulkDeleteResponse = z.object({ deleted: z.number().int() })
export const SimilarReportsResponse = z.array(
  z.object({ report_number: z.number().int(), title: z.string(), status: ReportStatus, priority: ReportPriority, created_at: isoDate }),
)
export const ErrorTypesResponse = z.array(z.object({ error_type: z.string(), count: z.number().int() }))

export const ReportActivityResponse = z.array(
  z.object({
    id: z.number().int(),
    action: z.string(),
    field: z.string().nullable(),
    old_value: z.string().nullable(),
    new_value: z.string().nullable(),
    actor_id: z.string().nullable(),
    actor_name: z.string().nullable(),
    created_at: isoDate,
  }),
)

export const Occurrence = z.object({
  id: z.string(),
  device_info: z.string().nullable(),
  os_info: z.string().nullable(),
  platform: z.string().nullable(),
  game_version: z.string().nullable(),
  player_id: z.string().nullable(),
  reporter_name: z.string().nullable(),
  metadata: z.unknown(),
  screenshot_url: z.string().nullable(),
  created_at: isoDate,
})
export const OccurrenceListResponse = z.object({ occurrences: z.array(Occurrence), total: z.number().int(), page: z.number().int(), per_page: z.number().int() })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type ReportListResponse = z.output<typeof ReportListResponse>
export type ReportCreatedResponse = z.output<typeof ReportCreatedResponse>
export type ReportDetailResponse = z.output<typeof ReportDetailResponse>
export type BulkUpdateResponse = z.output<typeof BulkUpdateResponse>
export type BulkDeleteResponse = z.output<typeof BulkDeleteResponse>
export type SimilarReportsResponse = z.output<typeof SimilarReportsResponse>
export type ErrorTypesResponse = z.output<typeof ErrorTypesResponse>
export type ReportActivityResponse = z.output<typeof ReportActivityResponse>
export type OccurrenceListResponse = z.output<typeof OccurrenceListResponse>

export const reportsDocs: OperationDocs = {
  'GET /api/projects/{slug}/bugs': { data: ReportListResponse },
  'POST /api/projects/{slug}/bugs': { status: 201, data: ReportCreatedResponse },
  'PATCH /api/projects/{slug}/bugs/bulk': { data: BulkUpdateResponse },
  'DELETE /api/projects/{slug}/bugs/bulk': { data: BulkDeleteResponse },
  'GET /api/projects/{slug}/bugs/similar': { data: SimilarReportsResponse },
  'GET /api/projects/{slug}/bugs/export': { data: z.string(), content: 'csv', description: 'The matching reports as CSV (text/csv), not enveloped' },
  'GET /api/projects/{slug}/error-types': { data: ErrorTypesResponse },
  'GET /api/projects/{slug}/bugs/{number}': { data: ReportDetailResponse },
  'PATCH /api/projects/{slug}/bugs/{number}': { data: MessageResponse },
  'DELETE /api/projects/{slug}/bugs/{number}': { data: MessageResponse },
  'GET /api/projects/{slug}/bugs/{number}/activity': { data: ReportActivityResponse },
  'GET /api/projects/{slug}/bugs/{number}/occurrences': { data: OccurrenceListResponse },
  'POST /api/projects/{slug}/bugs/{number}/split': { status: 201, data: ReportCreatedResponse },
}
