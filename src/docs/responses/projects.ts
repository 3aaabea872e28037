import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs, uuid } from './common'

const bugCounts = z.object({
  total: z.number().int(),
  open: z.number().int(),
  in_progress: z.number().int(),
  resolved: z.number().int(),
  closed: z.number().int(),
  wont_fix: z.number().int(),
})

export const ProjectSummary = z.object({
  id: uuid,
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
  website_url: z.string().nullable(),
  logo_url: z.string().nullable(),
  is_public: z.boolean(),
  created_at: isoDate,
  bug_counts: bugCounts,
})
export const ProjectListResponse = z.array(ProjectSummary)

export const ProjectCreatedResponse = z.object({ id: uuid, slug: z.string(), api_key: z.string().describe('sk_live_…') })

const previousKey = {
  previous_api_key: z.string().nullable().describe('The key before the last rotation while its grace period runs (it still works), else null'),
  previous_api_key_expires_at: isoDate.nullable().describe('When the previous key stops working'),
}

export const ProjectDetailResponse = ProjectSummary.omit({ bug_counts: true }).extend({
  api_key: z.string(),
  ...previousKey,
  dsn_id: z.number().int().positive().nullable().describe("The number in the project's Sentry DSN, unique on the server"),
  dsn: z.string().nullable().describe('The DSN Sentry SDKs send to: `{scheme}://{api_key}@{host}/{dsn_id}` from GLITCHBOX_PUBLIC_URL (README "Sentry SDKs")'),
  created_by: z.string().nullable(),
  updated_at: isoDate,
  settings: z.object({ is_public: z.boolean(), bug_grouping: z.boolean() }),
  sdk_settings: z.object({
    screenshot_capture: z.boolean(),
    session_capture: z.boolean(),
    auto_file_errors: z.boolean(),
    capture_editor_errors: z.boolean(),
    capture_warnings: z.boolean(),
  }),
  stats: z.object({
    total_reports: z.number().int(),
    open_reports: z.number().int(),
    in_progress_reports: z.number().int(),
    resolved_reports: z.number().int(),
    closed_reports: z.number().int(),
    wont_fix_reports: z.number().int(),
    first_report_at: isoDate.nullable(),
  }),
  role: z.string().describe("The caller's role in the project's account"),
})

export const ProjectUpdatedResponse = z.object({ message: z.string(), slug: z.string().describe("The project's slug: the new one after a change (the old one redirects for 90 days)") })

export const RotateKeyResponse = z.object({ api_key: z.string(), ...previousKey })

export const SetupStatusResponse = z.object({
  sdk_connected: z.boolean(),
  has_reports: z.boolean(),
  reports_from_sdk: z.boolean(),
  has_sessions: z.boolean(),
  has_sentry_events: z.boolean().describe('A Sentry SDK event, minidump or Unreal crash report has arrived'),
  has_sentry_sessions: z.boolean().describe('A Sentry SDK session has arrived'),
  first_report_at: isoDate.nullable(),
  first_session_at: isoDate.nullable(),
  public_url: z
    .object({ url: z.string(), set: z.boolean().describe('false when GLITCHBOX_PUBLIC_URL is unset and `url` is http://localhost:PORT') })
    .describe('The base of the DSN and file URLs (GLITCHBOX_PUBLIC_URL)'),
  sdk_budget: z
    .object({
      per_minute: z.number().int().nullable().describe('GLITCHBOX_RATE_LIMIT_PUBLIC: SDK requests a minute per player address; null when off'),
      refused_last_hour: z.number().int().describe("Requests with the project's SDK key (or its previous one) refused by that limit in the last hour (counted in memory since the server started; sessions, whose key is in the body, are not counted)"),
    })
    .describe('The SDK budget and how often it turned this game away: players behind one address (a LAN party, a café, a carrier NAT) share it'),
})

export const TestReportResponse = z.object({ id: uuid, report_number: z.number().int() })

export const ProjectActivityEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  field: z.string().nullable(),
  old_value: z.string().nullable(),
  new_value: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  report_id: z.string().nullable(),
  report_number: z.number().int().nullable(),
  report_title: z.string().nullable(),
  created_at: isoDate,
})
export const ProjectActivityResponse = z.array(ProjectActivityEntry)

export const AuditLogResponse = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      action: z.string(),
      target: z.string().nullable(),
      details: z.record(z.string(), z.unknown()).nullable(),
      actor_id: z.string().nullable(),
      actor_name: z.string().nullable(),
      created_at: isoDate,
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
})

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type ProjectListResponse = z.output<typeof ProjectListResponse>
export type ProjectCreatedResponse = z.output<typeof ProjectCreatedResponse>
export type ProjectDetailResponse = z.output<typeof ProjectDetailResponse>
export type RotateKeyResponse = z.output<typeof RotateKeyResponse>
export type ProjectUpdatedResponse = z.output<typeof ProjectUpdatedResponse>
export type SetupStatusResponse = z.output<typeof SetupStatusResponse>
export type TestReportResponse = z.output<typeof TestReportResponse>
export type ProjectActivityResponse = z.output<typeof ProjectActivityResponse>
export type AuditLogResponse = z.output<typeof AuditLogResponse>

export const projectsDocs: OperationDocs = {
  'GET /api/projects': { data: ProjectListResponse },
  'POST /api/projects': { status: 201, data: ProjectCreatedResponse, errors: [403, 409] },
  'GET /api/projects/{slug}': { data: ProjectDetailResponse },
  'PATCH /api/projects/{slug}': {
    data: ProjectUpdatedResponse,
    errors: [409],
    description: 'A new slug is used as given when free on this server (409 when taken); `/tracker/{old}` and the other URLs with the old slug answer 301 (GET) or 308 to the new ones for 90 days',
  },
  'DELETE /api/projects/{slug}': { data: MessageResponse },
  'POST /api/projects/{slug}/rotate-key': { data: RotateKeyResponse },
  'GET /api/projects/{slug}/setup-status': { data: SetupStatusResponse },
  'POST /api/projects/{slug}/send-test-report': { status: 201, data: TestReportResponse },
  'GET /api/projects/{slug}/activity': { data: ProjectActivityResponse },
  'GET /api/projects/{slug}/audit-log': { data: AuditLogResponse },
}
