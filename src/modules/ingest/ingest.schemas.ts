import * as z from 'zod'
import { listFilterQuery } from '../reports/reports.schemas'

export const occurrencesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  order: z.enum(['newest', 'oldest']).default('newest').describe('newest first (default) or oldest first: the first page of `oldest` starts with the submission that filed the report'),
  per_page: z.coerce.number().int().min(1).max(50).default(50).describe('Occurrences per page, 1 to 50 (default 50)'),
})

export const splitSchema = z.object({ occurrence_ids: z.array(z.string().min(1).max(64)).min(1).max(100) })

export const mergeSchema = z.object({
  numbers: z.array(z.number().int().positive().max(1e15)).min(1).max(100).optional().describe('Numbers of the reports to fold into this one (1 to 100)'),
  filter: listFilterQuery
    .optional()
    .describe("Instead of numbers: the list's query parameters (as strings, without sort and page); every live report they select but this one is folded in, at most 10,000 (more: 400, narrow the filter)"),
})
