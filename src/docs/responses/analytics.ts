import * as z from 'zod'
import { byKey, day, isoDate, type OperationDocs, period } from './common'
import { ReportCategory, ReportPriority, ReportStatus } from './reports'

const rate = z.number().nullable().describe('Share of sessions that did not crash, ended or not (as Sentry counts release health), 0 to 1; null without sessions')
const crashCounts = {
  sessions: z.number().int(),
  ended: z.number().int(),
  crashed: z.number().int(),
  reports: z.number().int().describe('New reports filed'),
  crash_reports: z.number().int(),
  events: z.number().int().describe('Occurrences: every submission, the first of each report included'),
  crash_events: z.number().int().describe('The events of crash and error reports'),
  crashes: z.number().int().describe('Events that are crashes: a fatal level, an unhandled exception, a minidump, an Unreal crash, a crash report (README "Analytics" § Definitions)'),
  errors: z.number().int().describe('The other events of crash and error reports: handled errors'),
  crash_free_rate: rate,
}
const volume = z.object({ today: z.number().int(), last_7_days: z.number().int(), last_30_days: z.number().int() })
const percentiles = z.object({ samples: z.number().int(), p50: z.number().nullable(), p95: z.number().nullable() })
const perfSummary = { fps: percentiles, frame_time_ms: percentiles, memory_used_mb: percentiles, load_time_sec: percentiles }
/** On every answer read from the analytics rollups, which each read first catches up (README "Analytics"). */
const fresh = {
  fresh_as_of: isoDate.describe(
    'How fresh the numbers are: the time of the read when the rollups had counted everything, else when the oldest submission or session not counted yet was stored (also in the X-Glitchbox-Fresh-As-Of header)',
  ),
}

export const AnalyticsDashboardResponse = z.object({
  ...fresh,
  projects: z.number().int(),
  by_status: byKey(z.number().int()),
  by_priority: byKey(z.number().int()),
  by_category: byKey(z.number().int()),
  daily: z.array(
    z.object({
      day,
      new: z.number().int().describe('Reports filed that day'),
      events: z.number().int().describe('Submissions received that day, each occurrence counted (a crash hit 20 times is 20)'),
      crash_events: z.number().int().describe('The events of crash and error reports'),
      crashes: z.number().int().describe('Events that are crashes (README "Analytics" § Definitions)'),
      resolved: z.number().int(),
      sessions: z.number().int(),
    }),
  ),
  crash_free: z.array(z.object({ project_id: z.string(), slug: z.string(), name: z.string(), sessions: z.number().int(), ended_sessions: z.number().int(), crashed_sessions: z.number().int(), crash_free_rate: rate })),
})
export const UsageResponse = z.object({
  ...fresh,
  reports: volume,
  sessions: volume,
  storage_bytes: z.number().int(),
  sdk_budget: z
    .object({
      per_minute: z.number().int().nullable().describe('GLITCHBOX_RATE_LIMIT_PUBLIC: SDK requests a minute per player address; null when off'),
      setting: z.literal('GLITCHBOX_RATE_LIMIT_PUBLIC').describe('The setting that raises it'),
      refused_last_hour: z.number().int(),
      refused_last_24_hours: z.number().int().describe("Requests with the project's SDK key (or its previous one) refused by that limit in the last 24 hours, on this node since it started"),
    })
    .optional()
    .describe('Per project only: the SDK budget and how often it turned this game away'),
})
export const CrashAnalyticsResponse = z.object({
  ...fresh,
  ...period,
  totals: z.object(crashCounts),
  by_version: z.array(z.object({ game_version: z.string(), ...crashCounts })),
  by_platform: z.array(z.object({ platform: z.string(), ...crashCounts })),
  daily: z.array(z.object({ day, ...crashCounts })),
})
const deployVersion = z.object({ version: z.string(), sessions: z.number().int(), crashed: z.number().int(), crash_free_rate: rate, reports: z.number().int() }).loose()
export const BadDeployResponse = z.object({
  environment: z.string().nullable().describe('The environment whose sessions were counted (`?environment=`), null for every environment'),
  ...fresh,
  verdict: z.enum(['worse', 'better', 'no_difference', 'not_enough_data']).describe('not_enough_data, or the comparison of the two newest versions'),
  summary: z.string().describe('The verdict in words, e.g. "1.3.0-beta crashes more than 1.2.0: 88.4% vs 98.2% crash-free sessions, a real difference, not chance (p < 0.001)"'),
  threshold: z.object({ alpha: z.number(), min_sessions: z.number().int(), rule: z.string() }),
  current: deployVersion.nullable(),
  previous: deployVersion.nullable(),
  crash_free_rate_change: z.number().nullable(),
  reports_per_100_change: z.number().nullable(),
  z: z.number().nullable(),
  p_value: z.number().nullable(),
})
export const CrashGroup = z.object({
  id: z.string(),
  fingerprint: z.string().describe("The reports' grouping key (the same as the report list's)"),
  grouped_by: z.string().describe('The grouping key as a person reads it'),
  error_type: z.string(),
  top_frame: z.string(),
  sample_title: z.string(),
  sample_report_number: z.number().int().describe('The latest report with this fingerprint'),
  count: z.number().int().describe('Events: occurrences of the group'),
  events: z.number().int().describe('Same as count'),
  crashes: z.number().int().describe('Its events that are crashes (README "Analytics" § Definitions)'),
  errors: z.number().int().describe('Its other events: handled errors'),
  affected_players: z.number().int(),
  players: z.number().int().describe('Distinct players, same as affected_players'),
  first_seen: isoDate,
  last_seen: isoDate,
  count_in_version: z.number().int().optional().describe('With `version`: events in that version'),
  events_in_version: z.number().int().optional().describe('With `version`: same as count_in_version'),
  players_in_version: z.number().int().optional().describe('With `version`: distinct players of its events in that version'),
  versions: z
    .array(z.object({ game_version: z.string(), count: z.number().int().describe('Events in this version'), events: z.number().int().describe('Same as count'), players: z.number().int().describe('Distinct players of those events') }))
    .describe('Most events first'),
}).loose()
export const CrashGroupListResponse = z.array(CrashGroup)
export const ReleaseHealthResponse = z.object({
  environment: z.string().nullable().describe('The environment whose sessions were counted (`?environment=`), null for every environment'),
  ...fresh,
  adoption_days: z.number().int(),
  sessions_last_7_days: z.number().int(),
  versions: z.array(
    z.object({
      version: z.string(),
      first_seen: isoDate.nullable(),
      sessions: z.number().int(),
      ended_sessions: z.number().int(),
      crashed_sessions: z.number().int(),
      crash_free_rate: rate,
      reports: z.number().int().describe('New reports first seen in this version'),
      crash_reports: z.number().int(),
      events: z.number().int().describe('Occurrences in this version: every submission'),
      crash_events: z.number().int(),
      players: z.number().int(),
      adoption_share: z.number().nullable(),
    }).loose(),
  ),
})
export const VersionHealthResponse = z.object({
  environment: z.string().nullable().describe('The environment whose sessions were counted (`?environment=`), null for every environment'),
  ...fresh,
  version: z.string(),
  days: z.number().int(),
  first_seen: isoDate.nullable(),
  sessions: z.number().int(),
  ended_sessions: z.number().int(),
  crashed_sessions: z.number().int(),
  crash_free_rate: rate,
  reports: z.number().int().describe('New reports first seen in this version'),
  crash_reports: z.number().int(),
  events: z.number().int().describe('Occurrences in this version: every submission'),
  crash_events: z.number().int(),
  players: z.number().int().describe("Distinct players seen in this version's sessions or reports"),
  daily: z.array(z.object({ day, sessions: z.number().int(), ended: z.number().int(), crashed: z.number().int(), crash_free_rate: rate }).loose()),
  top_crash_groups: z.array(CrashGroup),
}).loose()
const regressionReport = z.object({ id: z.string(), report_number: z.number().int(), title: z.string(), status: ReportStatus, game_version: z.string().nullable(), created_at: isoDate, updated_at: isoDate })
export const RegressionSuggestionsResponse = z.array(
  z.object({ original: regressionReport, new: regressionReport, error_type: z.string(), title_similarity: z.number(), resolved_version: z.string().nullable(), regressed_version: z.string().nullable() }),
)
export const Regression = z.object({
  id: z.string(),
  original_bug_id: z.string(),
  new_bug_id: z.string(),
  original_report_number: z.number().int().nullable(),
  new_report_number: z.number().int().nullable(),
  original_title: z.string().nullable(),
  new_title: z.string().nullable(),
  status: z.enum(['confirmed', 'dismissed']),
  resolved_version: z.string().nullable(),
  regressed_version: z.string().nullable(),
  decided_by: z.string().nullable(),
  created_at: isoDate,
  updated_at: isoDate,
})
export const RegressionListResponse = z.array(Regression)
const suggestion = <T extends z.ZodType>(value: T) => z.object({ value, reason: z.string() })
export const TriageResponse = z.object({
  report_number: z.number().int(),
  priority: suggestion(ReportPriority),
  category: suggestion(ReportCategory),
  duplicates: z.array(z.object({ report_number: z.number().int(), title: z.string(), status: ReportStatus, score: z.number(), reason: z.string() })),
  assignee: z.object({ user_id: z.string().nullable(), name: z.string().nullable(), reason: z.string() }),
  similar: z.array(z.object({ report_number: z.number().int(), title: z.string(), status: ReportStatus, score: z.number() })),
})
export const ChurnRiskResponse = z.object({
  total: z.number().int(),
  players: z.array(z.object({ player_id: z.string(), name: z.string().nullable(), last_seen: isoDate.nullable(), reasons: z.array(z.string()) })),
})
export const PerfSnapshot = z.object({
  id: z.string(),
  fps: z.number().nullable(),
  frame_time_ms: z.number().nullable(),
  memory_used_mb: z.number().nullable(),
  memory_total_mb: z.number().nullable(),
  draw_calls: z.number().nullable(),
  triangles: z.number().nullable(),
  cpu_usage: z.number().nullable(),
  gpu_usage: z.number().nullable(),
  load_time_sec: z.number().nullable(),
  network_latency_ms: z.number().nullable(),
  custom_metrics: z.unknown(),
  created_at: isoDate,
})
export const ReportPerfResponse = z.object({
  report_number: z.number().int(),
  game_version: z.string().nullable(),
  platform: z.string().nullable(),
  count: z.number().int(),
  summary: z.object(perfSummary),
  snapshots: z.array(PerfSnapshot),
})
export const PerfSummaryResponse = z.object({
  by_version_platform: z.array(z.object({ game_version: z.string().nullable(), platform: z.string().nullable(), ...perfSummary })),
  scene_loads: z.object({ ...perfSummary, samples: z.array(PerfSnapshot) }),
})
export const ReportReplaysResponse = z.array(
  z.object({ id: z.string(), file_url: z.string(), mime_type: z.string().nullable(), file_size: z.number().int(), duration_sec: z.number().nullable(), metadata: z.unknown(), created_at: isoDate }),
)
export const ProjectSatisfactionResponse = z.object({
  count: z.number().int(),
  average: z.number().nullable(),
  distribution: byKey(z.number().int()).describe('Rating 1 to 5 to count'),
  days: z.number().int(),
  trend: z.array(z.object({ day, count: z.number().int(), average: z.number().nullable() })),
})
// Types of the `data` the routes answer, for clients (the web app) that import them.
export type AnalyticsDashboardResponse = z.output<typeof AnalyticsDashboardResponse>
export type UsageResponse = z.output<typeof UsageResponse>
export type CrashAnalyticsResponse = z.output<typeof CrashAnalyticsResponse>
export type BadDeployResponse = z.output<typeof BadDeployResponse>
export type CrashGroupListResponse = z.output<typeof CrashGroupListResponse>
export type ReleaseHealthResponse = z.output<typeof ReleaseHealthResponse>
export type VersionHealthResponse = z.output<typeof VersionHealthResponse>
export type RegressionSuggestionsResponse = z.output<typeof RegressionSuggestionsResponse>
export type RegressionListResponse = z.output<typeof RegressionListResponse>
export type TriageResponse = z.output<typeof TriageResponse>
export type ChurnRiskResponse = z.output<typeof ChurnRiskResponse>
export type ReportPerfResponse = z.output<typeof ReportPerfResponse>
export type PerfSummaryResponse = z.output<typeof PerfSummaryResponse>
export type ReportReplaysResponse = z.output<typeof ReportReplaysResponse>
export type ProjectSatisfactionResponse = z.output<typeof ProjectSatisfactionResponse>

// Plan-gated reads answer 403 on plans without the feature.
export const analyticsDocs: OperationDocs = {
  'GET /api/analytics/dashboard': { data: AnalyticsDashboardResponse },
  'GET /api/projects/{slug}/dashboard': { data: AnalyticsDashboardResponse },
  'GET /api/usage': { data: UsageResponse },
  'GET /api/projects/{slug}/usage': { data: UsageResponse },
  'GET /api/projects/{slug}/crash-analytics': { data: CrashAnalyticsResponse },
  'GET /api/projects/{slug}/bad-deploy': { data: BadDeployResponse },
  'GET /api/projects/{slug}/crash-groups': { data: CrashGroupListResponse },
  'GET /api/projects/{slug}/release-health': { data: ReleaseHealthResponse },
  'GET /api/projects/{slug}/release-health/version': { data: VersionHealthResponse },
  'GET /api/projects/{slug}/regressions/detect': { data: RegressionSuggestionsResponse },
  'GET /api/projects/{slug}/regressions': { data: RegressionListResponse },
  'POST /api/projects/{slug}/regressions': { status: 201, data: Regression, alsoStatus: { status: 200, description: 'The pair was decided before; its decision is replaced' } },
  'GET /api/projects/{slug}/bugs/{number}/triage': { data: TriageResponse },
  'GET /api/projects/{slug}/churn-risk': { data: ChurnRiskResponse },
  'GET /api/projects/{slug}/bugs/{number}/perf': { data: ReportPerfResponse },
  'GET /api/projects/{slug}/perf-summary': { data: PerfSummaryResponse },
  'GET /api/projects/{slug}/bugs/{number}/replays': { data: ReportReplaysResponse },
  'GET /api/projects/{slug}/satisfaction': { data: ProjectSatisfactionResponse },
}
