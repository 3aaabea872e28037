import * as z from 'zod'
import { isoDate, MessageResponse, type OperationDocs, uuid } from './common'

/** Login and signup result (spec 2, Session). */
export const SessionResponse = z.object({
  token: z.string().describe('Session token for `Authorization: Bearer`'),
  user_id: uuid,
  email: z.string(),
  name: z.string(),
  onboarding_done: z.boolean(),
  email_verified: z.boolean(),
})

export const ProfileResponse = z.object({
  id: uuid,
  email: z.string(),
  name: z.string(),
  display_name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  theme: z.enum(['light', 'dark']).nullable(),
  role: z.string().nullable(),
  email_verified: z.boolean(),
  onboarding_done: z.boolean(),
  has_password: z.boolean(),
  created_at: isoDate,
  account: z.object({ id: uuid, name: z.string(), role: z.enum(['owner', 'admin', 'member']), plan: z.string() }).nullable(),
})

export const ShareCodeResponse = z.object({ code: z.string(), expires_at: isoDate })
export const VerifyEmailResponse = z.object({ message: z.string(), email_verified: z.literal(true) })

export const AccountExportResponse = z.object({
  exported_at: isoDate,
  profile: ProfileResponse,
  accounts: z.array(z.object({ id: uuid, name: z.string(), plan: z.string(), role: z.string(), joined_at: isoDate })),
  projects: z.array(z.object({ id: uuid, account_id: uuid, name: z.string(), slug: z.string(), created_at: isoDate })),
  reports: z.array(
    z.object({
      id: uuid,
      project_slug: z.string(),
      report_number: z.number().int(),
      title: z.string(),
      description: z.string(),
      status: z.string(),
      priority: z.string(),
      category: z.string(),
      platform: z.string().nullable(),
      game_version: z.string().nullable(),
      steps_to_reproduce: z.string().nullable(),
      expected_behavior: z.string().nullable(),
      actual_behavior: z.string().nullable(),
      filed_by_you: z.boolean(),
      created_at: isoDate,
      updated_at: isoDate,
    }),
  ),
  comments: z.array(z.object({ id: uuid, project_slug: z.string(), report_number: z.number().int(), body: z.string(), is_internal: z.boolean(), created_at: isoDate })),
})

/** An API token as its owner's list shows it (never the token). */
export const ApiTokenResponse = z.object({
  id: uuid,
  name: z.string(),
  hint: z.string().describe('The first characters of the token, to tell tokens apart'),
  scopes: z.array(z.enum(['debug_files.upload'])),
  project: z.string().nullable().describe('Slug of the one project the token acts on; null: every project its user sees'),
  created_at: isoDate,
  last_used_at: isoDate.nullable(),
})
export const ApiTokenListResponse = z.array(ApiTokenResponse)
export const CreatedApiTokenResponse = ApiTokenResponse.extend({ token: z.string().describe('The token (`glb_…`), for `Authorization: Bearer` or SENTRY_AUTH_TOKEN; shown this once') })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type SessionResponse = z.output<typeof SessionResponse>
export type ProfileResponse = z.output<typeof ProfileResponse>
export type ShareCodeResponse = z.output<typeof ShareCodeResponse>
export type VerifyEmailResponse = z.output<typeof VerifyEmailResponse>
export type AccountExportResponse = z.output<typeof AccountExportResponse>
export type ApiTokenResponse = z.output<typeof ApiTokenResponse>
export type CreatedApiTokenResponse = z.output<typeof CreatedApiTokenResponse>

export const authDocs: OperationDocs = {
  'POST /api/auth/signup': { status: 201, data: SessionResponse, errors: [409] },
  'POST /api/auth/login': { data: SessionResponse, errors: [401] },
  'GET /api/auth/verify-email': { data: VerifyEmailResponse },
  'POST /api/auth/resend-verification': { data: MessageResponse },
  'POST /api/auth/forgot-password': { data: MessageResponse, description: 'The same answer whether or not the account exists' },
  'POST /api/auth/reset-password': { data: MessageResponse },
  'POST /api/auth/logout': { data: MessageResponse },
  'GET /api/auth/me': { data: ProfileResponse },
  'PATCH /api/auth/profile': { data: MessageResponse },
  'POST /api/auth/change-password': { data: MessageResponse },
  'POST /api/auth/support-share-code': { data: ShareCodeResponse },
  'DELETE /api/auth/support-share-code': { data: MessageResponse },
  'GET /api/account/export': { data: AccountExportResponse },
  'DELETE /api/auth/account': { data: MessageResponse },
  'GET /api/auth/api-tokens': { data: ApiTokenListResponse },
  'POST /api/auth/api-tokens': { status: 201, data: CreatedApiTokenResponse, errors: [404] },
  'DELETE /api/auth/api-tokens/{id}': { data: MessageResponse, errors: [404] },
}
