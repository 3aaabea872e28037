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

/** What the list item and the report read share. */
const ReportFields = z.object({
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
  level: z.string().optional().describe("The latest event's severity as its client sent it (`fatal`, `error`, `warning`…); absent when no client said"),
  handled: z.boolean().optional().describe('false once any event was unhandled (a crash), true when all said handled (errors); absent when no client said'),
  source: z.enum(['user', 'system']),
  upvotes: z.number().int(),
  occurrences: z.number().int().describe('Same as occurrence_count (kept for earlier clients)'),
  occurrence_count: z.number().int().describe('Submissions grouped into this report (events), the first included'),
  player_count: z.number().int().describe('Distinct players among its occurrences'),
  first_seen: isoDate.describe('When its first occurrence arrived'),
  last_seen: isoDate.describe('When its latest occurrence arrived'),
  first_version: z.string().describe('Game version of the first occurrence that named one; empty when none did'),
  last_version: z.string().describe('Game version of the latest occurrence that named one; empty when none did'),
  versions: z.array(z.string()).describe('Distinct game versions of its occurrences, most recently seen first (at most 20)'),
  labels: z.array(ReportLabel),
  created_at: isoDate,
  updated_at: isoDate,
  sla: ReportSla,
})

export const ReportListItem = ReportFields.extend({
  culprit: z.string().optional().describe('The top in-app frame its events were grouped on, e.g. "InventoryPanel.Refresh (InventoryPanel.cs)"; absent when grouped on its title or message'),
  sparkline: z
    .array(z.number().int())
    .min(14)
    .max(30)
    .describe('Occurrences per UTC day over the last 14 days (or as `spark` chose: 30 days, or per clock hour over the last 24 hours), oldest first, the current day or hour last (counted up to the moment of the request)'),
})

export const ReportListResponse = z.object({
  bugs: z.array(ReportListItem),
  total: z.number().int(),
  total_capped: z.boolean().describe('True when `total` stopped counting at a cap (very large matches)'),
  escalating: z.array(z.number().int()).describe("The numbers of the page's reports that are escalating (`is:escalating`; the rule in GET /bugs/{number}/trend)"),
  page: z.number().int(),
  limit: z.number().int(),
  total_pages: z.number().int(),
})

export const ReportCreatedResponse = z.object({ id: uuid, report_number: z.number().int() })

export const Report = ReportFields.extend({
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
  fingerprint: z.string().describe('The grouping key: submissions with the same one are occurrences of this report'),
  grouping_label: z.string().describe('The grouping key as a person reads it, e.g. "NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)"'),
  resolved_in_version: z.string().nullable().describe('The newest game version seen on it when it was last resolved'),
  regressed_in_version: z.string().nullable().describe('The version whose occurrence reopened it after it was resolved (a regression)'),
  regressed_at: isoDate.nullable(),
  merged_into: z.number().int().nullable().describe('Always null on a live report; a merged report number answers 308 to its survivor'),
  published: z.boolean().nullable().describe("Explicit publication: true shown on the public pages whatever the tracker's publish mode, false never shown, null follows the mode"),
  on_roadmap: z.boolean().describe('Put on the public roadmap by the team'),
  auto_filed: z.boolean().describe("Filed by a machine (an SDK's automatic capture, a Sentry event, or a stack trace in the description): team-only unless the tracker includes auto-filed reports or it is published"),
  triaged_at: isoDate.nullable().describe('When a team member first touched it (status, label, public comment, publication); the `triaged` publish mode shows it from then'),
})

export const PublicPage = z.object({
  tracker_enabled: z.boolean(),
  publish: z.enum(['all', 'triaged', 'manual']).describe("The tracker's publish mode"),
  shown: z.boolean().describe('The public tracker shows this report now'),
  reason: z
    .enum(['published', 'unpublished', 'private', 'mode_all', 'triaged', 'not_triaged', 'manual', 'auto_filed'])
    .describe('Why: published or unpublished explicitly, private, the mode shows every report, it was triaged or not yet, the mode is manual, or it is auto-filed'),
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
    feedback_for: z.object({ report_number: z.number().int(), title: z.string() }).nullable().describe('For player feedback sent with a Sentry SDK: the report of the event it is about'),
    feedback: z.array(z.object({ report_number: z.number().int(), title: z.string() })).describe('Player feedback reports about this one (Sentry SDK feedback naming its event)'),
    blocked_by: z.array(LinkedReport).describe('Unresolved reports blocking this one'),
    public_page: PublicPage.describe('Whether the public tracker shows it, and why'),
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

export const OccurrenceAttachment = z.object({ id: uuid, file_name: z.string(), file_size: z.number().int(), mime_type: z.string().nullable(), file_url: z.string() })
export const Occurrence = z.object({
  id: z.string(),
  title: z.string().describe('The title this submission came with'),
  description: z.string().describe('Its own text: message, stack trace, recent logs'),
  steps_to_reproduce: z.string(),
  expected_behavior: z.string(),
  actual_behavior: z.string(),
  source: z.enum(['user', 'system']),
  error_type: z.string(),
  device_info: z.string(),
  os_info: z.string(),
  platform: z.string().describe("The player's operating system (`Windows`), '' when not sent"),
  runtime: z.string().describe("The runtime with its version (`node v20.20.2`, `Mono 6.12.0`), '' when not sent"),
  browser: z.string().describe("A web game's browser with its version (`Chrome 131.0.6778.33`), '' when not sent"),
  environment: z.string().describe("Where the build ran as the client names it (`production`, `staging`), '' when not sent"),
  game_version: z.string(),
  player_id: z.string().nullable(),
  reporter_name: z.string().nullable(),
  reporter_email: z.string().nullable(),
  metadata: z.unknown(),
  screenshot_url: z.string().nullable(),
  attachments: z.array(OccurrenceAttachment).describe('Files sent with this submission'),
  client: z.string().nullable().describe('The client when not Glitchbox\'s SDK, e.g. "sentry.python 1.9.10"'),
  event_id: z.string().nullable().describe("The client's own event id (Sentry's event_id)"),
  level: z.string().optional().describe('Its severity as the client sent it; absent when none'),
  handled: z.boolean().optional().describe("Whether a handler caught its exception (Sentry's mechanism.handled); absent when not said"),
  crash: z.literal(true).optional().describe('Present when it is a crash, not an error (README "Analytics" § Definitions)'),
  created_at: isoDate.describe("When it happened by the client's clock (Sentry's timestamp), never in the future nor before the retention window"),
  received_at: isoDate.optional().describe('When the server received it, when later than created_at (an event sent late)'),
})
export const ScreenshotListResponse = z.object({
  screenshots: z.array(
    z.object({
      occurrence_id: z.string().describe('The occurrence that sent it'),
      url: z.string(),
      created_at: isoDate.describe('When that occurrence happened'),
      game_version: z.string(),
      platform: z.string(),
      player: z.string().nullable().describe("The reporter's name, else the player id"),
    }),
  ).describe('Newest first, at most 50'),
  total: z.number().int().describe('Occurrences of the report that carry a screenshot'),
})
export const OccurrenceListResponse = z.object({ occurrences: z.array(Occurrence), total: z.number().int(), page: z.number().int(), per_page: z.number().int() })
const Share = z.object({ value: z.string().describe("The version or platform as sent; '' for occurrences that named none"), count: z.number().int().describe('Occurrences with it') })
export const OccurrenceDistribution = z.object({
  total: z.number().int().describe('Occurrences of the report; minus the counts listed, those of values past the 20 listed'),
  versions: z.array(Share).describe('Game versions, newest first (semantic-version order, else first seen), unnamed last; at most 20'),
  platforms: z.array(Share).describe('Platforms, most occurrences first; at most 20'),
})
export const SplitResponse = ReportCreatedResponse.extend({ occurrences: z.number().int().describe('Occurrences moved into the new report') })
export const FacetValuesResponse = z.object({
  versions: z.array(z.string()).describe('Game versions the occurrences came from, newest first (semantic versions by number), at most 500'),
  platforms: z.array(z.string()).describe('Platforms (operating systems) the occurrences came from, by name, at most 500'),
  runtimes: z.array(z.string()).describe('Runtimes the occurrences came from, by name, at most 500'),
  browsers: z.array(z.string()).describe('Browsers the occurrences came from, by name, at most 500'),
  environments: z.array(z.string()).describe('Environments the occurrences came from, by name, at most 500'),
})
export const MergeResponse = z.object({
  id: uuid,
  report_number: z.number().int(),
  merged: z.array(z.number().int()).describe('Numbers of the reports folded in (they now redirect here)'),
  occurrence_count: z.number().int(),
  player_count: z.number().int(),
  upvotes: z.number().int(),
})

export const ReportTrend = z.object({
  hourly: z.object({ from: isoDate.describe('Start of the first hour'), counts: z.array(z.number().int()).length(24).describe('Events per clock hour, oldest first, the current hour last') }),
  daily: z.object({ from: isoDate.describe('Start of the first UTC day'), counts: z.array(z.number().int()).length(30).describe('Events per UTC day, oldest first, today last') }),
  last_hour: z.number().int().describe('Events in the last 60 minutes (by event time)'),
  hourly_average: z.number().describe('Events per hour over the 24 hours before the last hour'),
  escalating: z.boolean().describe('Whether the report is escalating by `rule`'),
  rule: z.string().describe('The escalating rule in words'),
})

export const ReportTagFacet = z.object({
  tags: z.array(
    z.object({
      key: z.string(),
      count: z.number().int().describe('Occurrences that carried the key'),
      values: z.array(z.object({ value: z.string(), count: z.number().int() })).describe('Its top 10 values, most occurrences first'),
    }),
  ),
})

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
export type ScreenshotListResponse = z.output<typeof ScreenshotListResponse>
export type SplitResponse = z.output<typeof SplitResponse>
export type OccurrenceDistribution = z.output<typeof OccurrenceDistribution>
export type MergeResponse = z.output<typeof MergeResponse>
export type FacetValuesResponse = z.output<typeof FacetValuesResponse>
export type ReportTrend = z.output<typeof ReportTrend>
export type ReportTagFacet = z.output<typeof ReportTagFacet>

export const reportsDocs: OperationDocs = {
  'GET /api/projects/{slug}/bugs': { data: ReportListResponse },
  'POST /api/projects/{slug}/bugs': { status: 201, data: ReportCreatedResponse },
  'PATCH /api/projects/{slug}/bugs/bulk': { data: BulkUpdateResponse },
  'DELETE /api/projects/{slug}/bugs/bulk': { data: BulkDeleteResponse },
  'GET /api/projects/{slug}/bugs/similar': { data: SimilarReportsResponse },
  'GET /api/projects/{slug}/bugs/export': { data: z.string(), content: 'csv', description: 'The matching reports as CSV (text/csv), not enveloped' },
  'GET /api/projects/{slug}/bugs/facets': { data: FacetValuesResponse },
  'GET /api/projects/{slug}/error-types': { data: ErrorTypesResponse },
  'GET /api/projects/{slug}/bugs/{number}': { data: ReportDetailResponse, redirect: 'The number is a report merged into another: `merged_into` and `Location` name the report that has its occurrences now' },
  'PATCH /api/projects/{slug}/bugs/{number}': { data: MessageResponse },
  'DELETE /api/projects/{slug}/bugs/{number}': { data: MessageResponse },
  'GET /api/projects/{slug}/bugs/{number}/activity': { data: ReportActivityResponse },
  'GET /api/projects/{slug}/bugs/{number}/occurrences': { data: OccurrenceListResponse },
  'GET /api/projects/{slug}/bugs/{number}/screenshots': { data: ScreenshotListResponse },
  'GET /api/projects/{slug}/bugs/{number}/occurrences/distribution': { data: OccurrenceDistribution },
  'GET /api/projects/{slug}/bugs/{number}/trend': { data: ReportTrend },
  'GET /api/projects/{slug}/bugs/{number}/tags': { data: ReportTagFacet },
  'POST /api/projects/{slug}/bugs/{number}/split': { status: 201, data: SplitResponse },
  'POST /api/projects/{slug}/bugs/{number}/merge': { data: MergeResponse },
}
