import * as z from 'zod'
import { SEARCH_SYNTAX } from '../reports/fts-query'
import { CATEGORIES, STATUSES } from '../reports/reports.types'

export const trackerQuery = z.object({
  status: z.enum(STATUSES).optional(),
  category: z.enum(CATEGORIES).optional(),
  q: z.string().max(200).optional().describe(SEARCH_SYNTAX),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
})
export type TrackerQuery = z.infer<typeof trackerQuery>

export const reportNumberParams = z.object({ slug: z.string(), number: z.coerce.number().int().min(1) })

export const voteBody = z.object({ player_id: z.string().min(1).max(128).optional() }).optional()

export const roadmapQuery = z.object({
  status: z.enum(STATUSES).optional().describe('The column `page` applies to; the other columns answer their first page'),
  page: z.coerce.number().int().min(1).max(100_000).optional(),
})
export type RoadmapQuery = z.infer<typeof roadmapQuery>

export const similarQuery = z.object({ title: z.string().max(300).describe('What the player has typed as the title so far') })

export const widgetVoteBody = z.object({
  report_number: z.number().int().min(1),
  player_id: z.string().min(1).max(128).optional(),
})
