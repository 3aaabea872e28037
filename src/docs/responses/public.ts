import * as z from 'zod'
import { trackerSettingsSchema } from '../../modules/settings/settings.schemas'
import { isoDate, type OperationDocs } from './common'
import { ReportCategory, ReportPriority, ReportStatus } from './reports'
import { BrandingResponse } from './settings'

export const PublicBug = z.object({
  report_number: z.number().int(),
  title: z.string(),
  description: z.string().describe('Up to the first diagnostic section (stack traces and logs are not public)'),
  category: ReportCategory.optional().describe('Only when the tracker shows categories'),
  status: ReportStatus,
  priority: ReportPriority.optional().describe('Only when the tracker shows priorities'),
  upvotes: z.number().int(),
  comment_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
})

export const PublicTrackerResponse = z.object({
  settings: trackerSettingsSchema.omit({ enabled: true, publish: true, include_auto_filed: true }),
  bugs: z.array(PublicBug),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  total_pages: z.number().int(),
})

export const PublicBugResponse = PublicBug.extend({
  comments: z.array(z.object({ id: z.string(), body: z.string(), author_name: z.string().nullable(), created_at: isoDate })),
})

export const VoteResponse = z.object({ upvotes: z.number().int(), is_new: z.boolean() })

export const RoadmapResponse = z.object({
  settings: z.object({ title: z.string(), description: z.string(), statuses: z.array(ReportStatus), show_upvotes: z.boolean() }),
  columns: z.array(
    z.object({
      status: ReportStatus,
      bugs: z.array(
        z.object({
          report_number: z.number().int(),
          title: z.string(),
          category: ReportCategory,
          upvotes: z.number().int().optional().describe('Only when the roadmap shows upvotes'),
          on_tracker: z.boolean().describe('The public tracker shows this report (its page exists)'),
          updated_at: isoDate,
        }),
      ),
      total: z.number().int().describe('Reports in this column'),
      page: z.number().int(),
      total_pages: z.number().int(),
    }),
  ),
})

export const SuggestionsResponse = z.object({
  bugs: z.array(z.object({ report_number: z.number().int(), title: z.string(), status: ReportStatus, upvotes: z.number().int(), url: z.string().describe('The public report page') })),
  can_vote: z.boolean().describe('The tracker takes upvotes: offer a vote instead of a new report'),
})

export const MaintenanceResponse = z.object({ active: z.boolean(), message: z.string().nullable(), ends_at: isoDate.nullable(), started_at: isoDate.nullable() })
const HealthDatabase = z.object({ engine: z.enum(['sqlite', 'postgresql']).describe('SQLite in the data directory, or PostgreSQL at `GLITCHBOX_DATABASE_URL`') })
export const HealthResponse = z.object({ status: z.literal('healthy'), database: HealthDatabase })
export const UnhealthyResponse = z.object({
  status: z.literal('unhealthy'),
  error: z.string().describe('Why: the database cannot be read or reached (its reason), or the disk-full message'),
  database: HealthDatabase,
})

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type PublicTrackerResponse = z.output<typeof PublicTrackerResponse>
export type PublicBugResponse = z.output<typeof PublicBugResponse>
export type VoteResponse = z.output<typeof VoteResponse>
export type RoadmapResponse = z.output<typeof RoadmapResponse>
export type SuggestionsResponse = z.output<typeof SuggestionsResponse>
export type MaintenanceResponse = z.output<typeof MaintenanceResponse>
export type HealthResponse = z.output<typeof HealthResponse>
export type UnhealthyResponse = z.output<typeof UnhealthyResponse>

export const ServerInfoResponse = z.object({
  version: z.string(),
  has_accounts: z.boolean().describe('Someone has signed up on this server; until then the dashboard opens on Sign up'),
  billing_configured: z.boolean().describe('Stripe billing is set up: plans can be bought; else the operator sets them'),
  mail_configured: z.boolean().describe('SMTP is set up (`GLITCHBOX_SMTP_URL`): mail reaches people; else it stays in the outbox and its links are logged'),
  sign_in: z
    .object({ google: z.string().nullable(), apple: z.string().nullable() })
    .describe('The client id of each social sign-in the server accepts identity tokens for (null when not configured)'),
})
export type ServerInfoResponse = z.output<typeof ServerInfoResponse>

export const publicDocs: OperationDocs = {
  'GET /health': {
    data: HealthResponse,
    content: 'plain-json',
    description: '`{status: "healthy", database: {engine}}`, not enveloped',
    alsoStatus: { status: 503, data: UnhealthyResponse, description: 'The database file cannot be read, PostgreSQL does not answer (its reason in `error`), or the disk is full; not enveloped' },
  },
  'GET /api/maintenance/active': { data: MaintenanceResponse },
  'GET /api/server-info': { data: ServerInfoResponse },
  'GET /api/tracker/{slug}': { data: PublicTrackerResponse },
  'GET /api/tracker/{slug}/bugs/{number}': { data: PublicBugResponse },
  'POST /api/tracker/{slug}/bugs/{number}/vote': { data: VoteResponse, errors: [403] },
  'GET /api/roadmap/{slug}': { data: RoadmapResponse },
  'POST /api/roadmap/{slug}/bugs/{number}/vote': { data: VoteResponse, errors: [403] },
  'GET /api/tracker/{slug}/similar': { data: SuggestionsResponse },
  'GET /api/branding/{slug}': { data: BrandingResponse },
  'GET /api/bugs/similar': { data: SuggestionsResponse },
  'POST /api/bugs/vote': { data: VoteResponse, errors: [403] },
}
