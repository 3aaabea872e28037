import * as z from 'zod'
import { PRIORITIES } from '../reports/reports.types'

export const INTEGRATION_EVENTS = ['bug_created', 'bug_updated', 'comment_added', 'digest', 'reviews', 'review_bugs'] as const

const config = z.record(z.string(), z.unknown())
const eventTypes = z.array(z.enum(INTEGRATION_EVENTS)).max(6)

export const createIntegrationBody = z.object({
  secret: z.string().trim().min(1).max(10_000),
  name: z.string().trim().min(1).max(100).optional(),
  event_types: eventTypes.optional(),
  min_priority: z.enum(PRIORITIES).optional(),
  config: config.optional(),
})
export type CreateIntegrationBody = z.infer<typeof createIntegrationBody>

export const updateIntegrationBody = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  secret: z.string().trim().min(1).max(10_000).optional(),
  event_types: eventTypes.optional(),
  min_priority: z.enum(PRIORITIES).optional(),
  config: config.optional(),
  is_active: z.boolean().optional(),
})
export type UpdateIntegrationBody = z.infer<typeof updateIntegrationBody>

export const targetsBody = z.object({
  secret: z.string().trim().min(1).max(10_000).optional(),
  id: z.string().min(1).max(100).optional(),
  config: config.optional(),
})
export type TargetsBody = z.infer<typeof targetsBody>

export const listIntegrationsQuery = z.object({ provider: z.string().max(50).optional() })

export const fileIssueBody = z.object({ integration_id: z.string().min(1).max(100) })
