import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs } from './common'
import { CustomFieldValue, Dependency, ReportCategory, ReportPriority, ReportStatus } from './reports'

export { Dependency }

export const DependencyListResponse = z.array(Dependency)
export const DueDateResponse = z.object({ due_date: isoDate.nullable() })

export const CustomField = z.object({
  id: z.string(),
  name: z.string(),
  field_type: z.string(),
  options: z.array(z.string()).nullable(),
  is_required: z.boolean(),
  created_at: isoDate,
})
export const CustomFieldListResponse = z.array(CustomField)
export const CustomFieldValuesResponse = z.array(CustomFieldValue)

export const ReportTemplate = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  priority: ReportPriority.nullable(),
  category: ReportCategory.nullable(),
  body_template: z.string().nullable(),
  created_at: isoDate,
  updated_at: isoDate,
})
export const ReportTemplateListResponse = z.array(ReportTemplate)

export const SatisfactionResponse = z.object({
  average: z.number().nullable(),
  count: z.number().int(),
  ratings: z.array(
    z.object({ id: z.string(), rating: z.number().int(), comment: z.string().nullable(), rater_id: z.string().nullable(), rater_name: z.string().nullable(), created_at: isoDate, updated_at: isoDate }),
  ),
})
export const RatingResponse = z.object({ id: z.string(), rating: z.number().int(), comment: z.string().nullable(), is_new: z.boolean() })

export const SlaResponse = z.object({ rules: z.array(z.object({ priority: ReportPriority, response_hours: z.number(), resolve_hours: z.number() })) })
export const AlertRule = z.object({
  id: z.string(),
  metric: z.string().describe('new_reports, new_crash_reports, crash_rate, negative_sentiment or escalating_reports'),
  threshold: z.number(),
  window_hours: z.number(),
  enabled: z.boolean(),
  last_evaluated_at: isoDate.nullable(),
  last_value: z.number().nullable(),
  last_fired_at: isoDate.nullable(),
  created_at: isoDate,
})
export const AlertRuleListResponse = z.array(AlertRule)
export const SavedFilter = z.object({ id: z.string(), name: z.string(), project_id: z.string(), filters: z.unknown().describe('The list query it stands for'), created_at: isoDate })
export const SavedFilterListResponse = z.array(SavedFilter)
export const SavedView = SavedFilter.extend({ sort_by: z.string().nullable(), pinned: z.boolean(), position: z.number().int(), updated_at: isoDate })
export const SavedViewListResponse = z.array(SavedView)

export const ImportResponse = z.object({
  created: z.number().int(),
  skipped: z.number().int().describe('Items whose external_id was imported before'),
  errors: z.array(z.object({ index: z.number().int(), error: z.string() })).describe('Items refused, with their index and the reason'),
  report_numbers: z.array(z.number().int()),
})
export const ImportListResponse = z.array(
  z.object({
    report_number: z.number().int(),
    title: z.string(),
    status: ReportStatus,
    external_id: z.string().nullable(),
    external_url: z.string().nullable(),
    import_id: z.string(),
    imported_at: isoDate,
  }),
)

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type DependencyListResponse = z.output<typeof DependencyListResponse>
export type DueDateResponse = z.output<typeof DueDateResponse>
export type CustomFieldListResponse = z.output<typeof CustomFieldListResponse>
export type CustomFieldValuesResponse = z.output<typeof CustomFieldValuesResponse>
export type ReportTemplateListResponse = z.output<typeof ReportTemplateListResponse>
export type SatisfactionResponse = z.output<typeof SatisfactionResponse>
export type RatingResponse = z.output<typeof RatingResponse>
export type SlaResponse = z.output<typeof SlaResponse>
export type AlertRuleListResponse = z.output<typeof AlertRuleListResponse>
export type SavedFilterListResponse = z.output<typeof SavedFilterListResponse>
export type SavedViewListResponse = z.output<typeof SavedViewListResponse>
export type ImportResponse = z.output<typeof ImportResponse>
export type ImportListResponse = z.output<typeof ImportListResponse>

export const workflowDocs: OperationDocs = {
  'POST /api/projects/{slug}/import': {
    data: ImportResponse,
    errors: [400],
    requestBody: {
      'application/json': z.object({
        bugs: z
          .array(z.looseObject({ title: z.string(), description: z.string().optional(), external_id: z.string().optional(), external_url: z.string().optional() }))
          .max(1000)
          .describe('Also status, priority, category, platform, game_version, steps_to_reproduce, source'),
      }),
      'text/csv': z.string().describe("Our CSV export's layout, GitHub's or Jira's"),
    },
  },
  'GET /api/projects/{slug}/imports': { data: ImportListResponse },
  'GET /api/projects/{slug}/sla': { data: SlaResponse },
  'PUT /api/projects/{slug}/sla': { data: SlaResponse },
  'GET /api/projects/{slug}/alerts': { data: AlertRuleListResponse },
  'POST /api/projects/{slug}/alerts': { status: 201, data: AlertRule },
  'PATCH /api/projects/{slug}/alerts/{ruleId}': { data: AlertRule },
  'DELETE /api/projects/{slug}/alerts/{ruleId}': { data: MessageResponse },
  'GET /api/saved-filters': { data: SavedFilterListResponse },
  'POST /api/saved-filters': { status: 201, data: SavedFilter, errors: [404] },
  'DELETE /api/saved-filters/{filterId}': { data: MessageResponse },
  'GET /api/saved-views': { data: SavedViewListResponse },
  'POST /api/saved-views': { status: 201, data: SavedView, errors: [404] },
  'PATCH /api/saved-views/{viewId}': { data: SavedView },
  'DELETE /api/saved-views/{viewId}': { data: MessageResponse },
  'GET /api/projects/{slug}/bugs/{number}/dependencies': { data: DependencyListResponse },
  'POST /api/projects/{slug}/bugs/{number}/dependencies': { status: 201, data: Dependency, errors: [409] },
  'DELETE /api/projects/{slug}/dependencies/{depId}': { data: MessageResponse },
  'PATCH /api/projects/{slug}/bugs/{number}/due-date': { data: DueDateResponse },
  'GET /api/projects/{slug}/custom-fields': { data: CustomFieldListResponse },
  'POST /api/projects/{slug}/custom-fields': { status: 201, data: CustomField, errors: [409] },
  'DELETE /api/projects/{slug}/custom-fields/{fieldId}': { data: MessageResponse },
  'GET /api/projects/{slug}/bugs/{number}/custom-fields': { data: CustomFieldValuesResponse },
  'POST /api/projects/{slug}/bugs/{number}/custom-fields': { data: CustomFieldValuesResponse },
  'GET /api/projects/{slug}/templates': { data: ReportTemplateListResponse },
  'POST /api/projects/{slug}/templates': { status: 201, data: ReportTemplate, errors: [409] },
  'PATCH /api/projects/{slug}/templates/{templateId}': { data: ReportTemplate, errors: [409] },
  'DELETE /api/projects/{slug}/templates/{templateId}': { data: MessageResponse },
  'GET /api/projects/{slug}/bugs/{number}/satisfaction': { data: SatisfactionResponse },
  'POST /api/projects/{slug}/bugs/{number}/satisfaction': { status: 201, data: RatingResponse, alsoStatus: { status: 200, description: 'Replaced your earlier rating (`is_new: false`)' } },
}
