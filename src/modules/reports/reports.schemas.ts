import * as z from 'zod'
import { SEARCH_SYNTAX } from './fts-query'
import { FILTER_SYNTAX } from './search-filters'
import { SPARK_RANGES } from './list-filter-keys'
import { CATEGORIES, PRIORITIES, SOURCES, STATUSES } from './reports.types'

const text = (max: number) => z.string().max(max)
const required = (max: number) => z.string().trim().min(1).max(max)

export const createReportBody = z.object({
  title: required(300),
  description: required(50_000),
  priority: z.enum(PRIORITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  platform: text(100).optional(),
  game_version: text(100).optional(),
  os_info: text(500).optional(),
  device_info: text(500).optional(),
  steps_to_reproduce: text(20_000).optional(),
  expected_behavior: text(20_000).optional(),
  actual_behavior: text(20_000).optional(),
  /** Custom field id → value; required fields must be given (report-admin/report-admin.routes.ts). */
  custom_fields: z.record(z.string().max(100), z.unknown()).optional(),
})

/** `assigned_to`: a member's user id; "" or null unassigns. */
const assignee = z.union([z.string().max(100), z.null()])

/** Publication fields of a report update, single or bulk. */
const publication = {
  published: z
    .boolean()
    .nullable()
    .optional()
    .describe("Publish (true: on the public pages whatever the tracker's publish mode) or unpublish (false: never there); null: follow the mode again"),
  on_roadmap: z.boolean().optional().describe('Put the report on the public roadmap (when the roadmap is not driven by a label)'),
}

export const updateReportBody = z.object({
  title: required(300).optional(),
  description: required(50_000).optional(),
  status: z.enum(STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  assigned_to: assignee.optional(),
  is_private: z.boolean().optional(),
  platform: text(100).optional(),
  ...publication,
})

/** A query flag: `true` or `false`. */
const flag = z.enum(['true', 'false']).transform((v) => v === 'true')

/** What selects the list's reports (its query parameters without sort and page); also the bulk routes' `filter`. */
export const listFilterQuery = z.object({
  status: z.enum(STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  assigned_to: z.string().min(1).max(100).optional().describe('A member\'s user id, or `unassigned`'),
  label: z.string().min(1).max(100).optional(),
  source: z.enum(SOURCES).optional(),
  error_type: z.string().min(1).max(200).optional().describe('Exactly this error type (see also `error:` in `q`)'),
  q: z.string().max(500).optional().describe(`${SEARCH_SYNTAX} ${FILTER_SYNTAX}`),
  version: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this game version (case-insensitive); the same as `version:` in `q`'),
  platform: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this platform (case-insensitive); the same as `platform:` in `q`'),
  runtime: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this runtime (`node`, `Mono`; case-insensitive); the same as `runtime:` in `q`'),
  browser: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this browser (`Chrome`, `Firefox`; case-insensitive); the same as `browser:` in `q`'),
  environment: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this environment (`production`, `staging`; case-insensitive); the same as `environment:` in `q`'),
  player: z.string().min(1).max(200).optional().describe('Reports with any occurrence from this player (`player_id` / `steam_id`); the same as `player:` in `q`'),
  fingerprint: z.string().min(1).max(200).optional().describe('Reports with this grouping key (a report\'s `fingerprint`); the same as `fingerprint:` in `q`'),
  regression: flag.optional().describe('`true`: only reports a newer build reopened after they were resolved; the same as `is:regression` in `q`'),
  has_screenshot: flag.optional().describe('`true`: only reports with any occurrence that brought a screenshot; the same as `has:screenshot` in `q`'),
  blocked: flag.optional(),
  overdue: flag.optional(),
  /** `<select field id>:<option>` */
  custom_field: z.string().min(3).max(300).optional(),
  sla: z.enum(['ok', 'at_risk', 'breached']).optional(),
})

/**
 * Which reports a bulk action takes: `bug_ids` or `bug_numbers` (1 to 100), or `filter` (every report
 * the list shows for those parameters, on any page; at most 10,000).
 */
const labelId = z.string().trim().min(1, 'must not be empty').max(64)

const selector = {
  bug_ids: z.array(z.uuid()).min(1).max(100).optional(),
  bug_numbers: z.array(z.number().int().positive()).min(1).max(100).optional(),
  filter: listFilterQuery
    .optional()
    .describe('Instead of ids or numbers: the list\'s query parameters (as strings, without sort and page); every live report they select, at most 10,000 (more: 400, narrow the filter). `{}` is every report of the project.'),
}

export const bulkUpdateBody = z.object({
  ...selector,
  status: z.enum(STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  category: z.enum(CATEGORIES).optional(),
  assigned_to: assignee.optional(),
  is_private: z.boolean().optional(),
  ...publication,
  add_label_ids: z.array(labelId).min(1).max(20).optional().describe('Labels (ids of the project\'s labels) to put on every selected report; 404 when one is not the project\'s'),
  remove_label_ids: z.array(labelId).min(1).max(20).optional().describe('Labels to take off every selected report'),
})

export const bulkDeleteBody = z.object(selector)

export const listQuery = listFilterQuery.extend({
  sort: z
    .enum(['priority', 'upvotes', 'updated', 'newest', 'due', 'last_seen', 'occurrences', 'players', 'trending'])
    .optional()
    .describe('newest (default), priority, upvotes (votes), updated, due; last_seen (latest occurrence first), occurrences (most events first), players (most players first), trending (events in the last hour most above the hourly average of the 24 hours before, then last seen)'),
  spark: z.enum(SPARK_RANGES).optional().describe("What each row's `sparkline` counts: `14d` (default) or `30d`, events per UTC day; `24h`, events per clock hour over the last 24 hours"),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
})

export const similarQuery = z.object({ title: z.string().max(300) })

export const exportQuery = z.object({
  status: z.enum(STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
})

export type CreateReportBody = z.infer<typeof createReportBody>
export type UpdateReportBody = z.infer<typeof updateReportBody>
export type BulkUpdateBody = z.infer<typeof bulkUpdateBody>
export type BulkDeleteBody = z.infer<typeof bulkDeleteBody>
export type ListFilterQuery = z.infer<typeof listFilterQuery>
