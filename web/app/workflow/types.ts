/** Types of the workflow routes: requests from the server's zod schemas, answers from its documented responses. */
import type * as z from 'zod'
import type * as docs from '../../../src/docs/responses/workflow'
import type * as schemas from '../../../src/modules/workflow/workflow.schemas'

export type Dependency = z.infer<typeof docs.Dependency>
export type CustomField = z.infer<typeof docs.CustomField>
export type CustomFieldValue = z.infer<typeof docs.CustomFieldValuesResponse>[number]
export type ReportTemplate = z.infer<typeof docs.ReportTemplate>
export type Satisfaction = z.infer<typeof docs.SatisfactionResponse>
export type SlaRules = z.infer<typeof docs.SlaResponse>
export type AlertRule = z.infer<typeof docs.AlertRule>
export type SavedView = z.infer<typeof docs.SavedView>
export type ImportResult = z.infer<typeof docs.ImportResponse>
export type ImportedReport = z.infer<typeof docs.ImportListResponse>[number]

export type DependencyBody = z.infer<typeof schemas.dependencyBody>
export type CreateCustomFieldBody = z.infer<typeof schemas.createCustomFieldBody>
export type TemplateBody = z.infer<typeof schemas.createTemplateBody>
export type SlaBody = z.infer<typeof schemas.slaBody>
export type AlertBody = z.infer<typeof schemas.alertBody>
export type SavedViewBody = z.infer<typeof schemas.savedViewBody>

export const FIELD_TYPES = ['text', 'number', 'date', 'select', 'multiselect', 'checkbox', 'url'] as const
export const ALERT_METRICS = [
  { value: 'new_reports', label: 'New reports' },
  { value: 'new_crash_reports', label: 'New crash reports' },
  { value: 'crash_rate', label: 'Crash rate (crashed per 100 sessions)' },
  { value: 'negative_sentiment', label: 'Negative reports' },
  { value: 'escalating_reports', label: 'Escalating reports (events in the last hour over 3× their hourly average)' },
] as const
