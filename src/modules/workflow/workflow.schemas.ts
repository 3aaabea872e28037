import * as z from 'zod'
import { CATEGORIES, PRIORITIES } from '../reports/reports.table'
import { FIELD_TYPES } from './workflow.table'

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
