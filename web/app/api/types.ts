/**
 * Types of the API's requests and answers. Requests are `z.infer` of the server's zod schemas (type-only
 * imports: nothing of the server is bundled). The answers the
 * dashboard reads come from `src/docs/responses/*` where they exist (auth, projects) and are written
 * here from what the routes return for the rest (team, permissions, webhooks, changelog, billing).
 */
import type * as z from 'zod'
import type * as auth from '../../../src/modules/auth/auth.schemas'
import type * as accountData from '../../../src/modules/account-data/account-data.schemas'
import type * as projects from '../../../src/modules/projects/projects.schemas'
import type * as settings from '../../../src/modules/settings/settings.schemas'
import type * as changelog from '../../../src/modules/changelog/changelog.schemas'
import type * as webhooks from '../../../src/modules/webhooks/webhooks.schemas'
import type * as notifications from '../../../src/modules/notifications/notifications.schemas'
import type * as team from '../../../src/modules/team/team.schemas'
import type * as permissions from '../../../src/modules/permissions/permissions.schemas'
import type * as billing from '../../../src/modules/billing/billing.schemas'
import type * as authDocs from '../../../src/docs/responses/auth'
import type * as projectDocs from '../../../src/docs/responses/projects'
import type * as common from '../../../src/docs/responses/common'
import type { PermissionKey } from '../../../src/modules/permissions/permissions.catalog'

export type { PermissionKey }

// Requests
export type SignupBody = z.infer<typeof auth.signupBody>
export type LoginBody = z.infer<typeof auth.loginBody>
export type ProfileBody = { display_name?: string; avatar_url?: string; theme?: Theme; role?: ProfileRole }
export type ChangePasswordBody = z.infer<typeof auth.changePasswordBody>
export type DeleteAccountBody = z.infer<typeof accountData.deleteAccountBody>
export type ApiTokenBody = z.input<typeof accountData.apiTokenBody>
export type CreateProjectBody = z.infer<typeof projects.createProjectBody>
export type UpdateProjectBody = z.infer<typeof projects.updateProjectBody>
export type TrackerSettings = settings.TrackerSettings
export type RoadmapSettings = settings.RoadmapSettings
export type Branding = settings.Branding
export type WidgetSettings = settings.WidgetSettings
export type CreateEntryBody = z.infer<typeof changelog.createEntryBody>
export type UpdateEntryBody = z.infer<typeof changelog.updateEntryBody>
export type CreateWebhookBody = z.infer<typeof webhooks.createWebhookBody>
export type NotificationPreferences = Required<z.infer<typeof notifications.updatePreferencesBody>>
export type InviteBody = z.input<typeof team.inviteBody>
export type ChangeMemberBody = z.infer<typeof team.changeMemberBody>
export type ProjectAccess = z.infer<typeof team.projectAccessSchema>
export type OverridesBody = z.infer<typeof permissions.overridesBody>
export type CheckoutBody = z.infer<typeof billing.checkoutBody>

export type Theme = (typeof auth.THEMES)[number]
export type ProfileRole = (typeof auth.PROFILE_ROLES)[number]
export const THEMES: readonly Theme[] = ['light', 'dark']
export const PROFILE_ROLES: readonly ProfileRole[] = ['developer', 'designer', 'qa', 'producer', 'community_manager', 'player']
export type AccountRole = 'owner' | 'admin' | 'member'
export type PlanKey = 'self_hosted' | 'free' | 'pro' | 'studio'

// Answers: from src/docs/responses where the docs developer has written them, else below.
export type Session = z.infer<typeof authDocs.SessionResponse>
export type Me = Omit<z.infer<typeof authDocs.ProfileResponse>, 'account' | 'role'> & {
  role: ProfileRole | null
  account: { id: string; name: string; role: AccountRole; plan: string } | null
}
export type Message = z.infer<typeof common.MessageResponse>
export type ApiToken = authDocs.ApiTokenResponse
export type CreatedApiToken = authDocs.CreatedApiTokenResponse

export type ProjectSummary = z.infer<typeof projectDocs.ProjectSummary>
export type BugCounts = ProjectSummary['bug_counts']
export type ProjectDetail = Omit<z.infer<typeof projectDocs.ProjectDetailResponse>, 'role'> & { role: AccountRole }
export type SdkSettings = ProjectDetail['sdk_settings']
export type CreatedProject = z.infer<typeof projectDocs.ProjectCreatedResponse>
export type RotatedKey = z.infer<typeof projectDocs.RotateKeyResponse>
export type ProjectUpdated = z.infer<typeof projectDocs.ProjectUpdatedResponse>
export type SetupStatus = z.infer<typeof projectDocs.SetupStatusResponse>
export type TestReport = z.infer<typeof projectDocs.TestReportResponse>
export type AuditPage = z.infer<typeof projectDocs.AuditLogResponse>
export type AuditEntry = AuditPage['entries'][number]

// Not in src/docs/responses yet: written from what the routes return.
export type Usage = { projects: number; reports: number; upload_bytes: number; seats: number }
export type Limits = { [K in keyof Usage]: number | null }
export type Features = Record<string, boolean>
export type Member = { user_id: string; email: string; name: string; role: AccountRole; project_access: ProjectAccess; joined_at: string }
export type Invitation = { id: string; email: string; role: 'admin' | 'member'; project_access: ProjectAccess; expires_at: string; created_at?: string; invited_by?: string | null }
export type Roster = { members: Member[]; pending_invitations: Invitation[] }
export type Account = {
  id: string
  name: string
  your_role: AccountRole
  your_project_access: ProjectAccess
  plan: { key: PlanKey; name: string; tier: number }
  members: Member[]
  pending_invitations: Invitation[]
  projects: { id: string; name: string; slug: string }[]
  usage: Usage
  limits: Limits
  features: Features
}
export type CreatedInvite = { id: string; token: string; email: string; role: 'admin' | 'member'; project_access: ProjectAccess; expires_at: string }

export type PermissionMap = Partial<Record<PermissionKey, boolean>>
export type EffectivePermissions = { role: AccountRole; permissions: PermissionMap; project_access: ProjectAccess }
export type PermissionCatalog = {
  groups: { key: string; name: string; permissions: { key: PermissionKey; name: string; description: string }[] }[]
  role_defaults: Record<AccountRole, PermissionMap>
}
export type MemberPermissions = { user_id?: string; role: AccountRole; permissions: PermissionMap; overrides: PermissionMap }

/** `secret` (and the full `url`) only for members with webhooks.manage. */
export type Webhook = { id: string; name: string; url: string; secret?: string | null; secret_hint: string | null; event_types: string; created_at: string }
export type WebhookAttempt = { attempt: number; status_code: number | null; duration_ms: number | null; error: string | null; response_snippet: string | null; created_at: string | null }
export type WebhookDelivery = {
  id: string
  event: string
  /** Sent by the test button (event `test`). */
  is_test: boolean
  status: string
  attempt_count: number
  last_status_code: number | null
  last_error: string | null
  next_attempt_at: string | null
  created_at: string | null
  updated_at: string | null
  payload: unknown
  attempts: WebhookAttempt[]
}
export type WebhookTestResult = { status_code: number; message: string; signed: boolean }

export type ChangelogEntry = { id: string; title: string; body: string; version: string | null; published_at: string | null; created_at: string; updated_at: string }

export type Subscription = {
  plan: PlanKey
  tier: number
  status: string
  current_period_end: string | null
  cancel_at_period_end: boolean
  pending_downgrade: unknown
  usage: Usage
  limits: Limits
  features: Features
}
