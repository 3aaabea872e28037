import * as z from 'zod'
import { CATEGORIES, PRIORITIES } from '../reports/reports.types'
import { ALERT_METRICS, FIELD_TYPES } from './workflow.table'
import { LIST_FILTER_KEYS } from '../reports/list-filter-keys'

export const dependencyBody = z.object({
  related_number: z.number().int().positive(),
  relationship: z.enum(['blocks', 'blocked_by']),
})
export type DependencyBody = z.infer<typeof dependencyBody>

/** An ISO date (`2026-12-01`, due at the end of that UTC day) or date-time; null clears. */
export const dueDateBody = z.object({
  due_date: z.union([z.iso.date(), z.iso.datetime({ offset: true }), z.null()]),
})

export const ratingBody = z.object({
  rating: z.number().int().min(1).max(5),
  comment: z.string().max(5_000).optional(),
})

const templateFields = {
  name: z.string().trim().min(1).max(100),
  description: z.string().max(1_000).optional(),
  priority: z.enum(PRIORITIES).nullable().optional(),
  category: z.enum(CATEGORIES).nullable().optional(),
  body_template: z.string().max(20_000).optional(),
}
export const createTemplateBody = z.object(templateFields)
export const updateTemplateBody = z.object(templateFields).partial()
export type TemplateBody = z.infer<typeof updateTemplateBody>

export const createCustomFieldBody = z.object({
  name: z.string().trim().min(1).max(100),
  field_type: z.enum(FIELD_TYPES),
  options: z.array(z.string().trim().min(1).max(100)).max(100).optional(),
  is_required: z.boolean().optional(),
})
export type CreateCustomFieldBody = z.infer<typeof createCustomFieldBody>

export const setCustomFieldBody = z.object({
  field_id: z.string().min(1).max(100),
  /** Checked against the field's type by the service (null clears). */
  value: z.unknown(),
})

const hours = z.number().positive().max(24 * 365)
export const slaBody = z.object({
  rules: z.array(z.object({ priority: z.enum(PRIORITIES), response_hours: hours, resolve_hours: hours })).max(PRIORITIES.length),
})

const filters = z.partialRecord(z.enum([...LIST_FILTER_KEYS, 'sort']), z.string().max(500))
const viewName = z.string().trim().min(1).max(100)

export const savedFilterBody = z.object({ name: viewName, project_id: z.string().min(1).max(100), filters })

export const savedViewBody = z.object({
  name: viewName,
  project_id: z.string().min(1).max(100),
  filters: filters.optional(),
  sort_by: z.enum(['newest', 'priority', 'upvotes', 'updated', 'due', 'last_seen', 'occurrences', 'players', 'trending']).nullable().optional(),
  pinned: z.boolean().optional(),
  position: z.number().int().min(0).optional(),
})
export type SavedViewBody = z.infer<typeof savedViewBody>
export const updateSavedViewBody = savedViewBody.omit({ project_id: true }).partial()
export type UpdateSavedViewBody = z.infer<typeof updateSavedViewBody>
export const savedListQuery = z.object({ project_id: z.string().min(1).max(100).optional() })

export const alertBody = z.object({
  metric: z.enum(ALERT_METRICS),
  threshold: z.number().positive().max(1_000_000),
  window_hours: z.number().int().min(1).max(24 * 30),
  enabled: z.boolean().optional(),
})
export const updateAlertBody = alertBody.omit({ metric: true }).partial()
