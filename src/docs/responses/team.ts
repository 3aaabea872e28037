import * as z from 'zod'
import { projectAccessSchema } from '../../modules/team/team.schemas'
import { isoDate, MessageResponse, type OperationDocs, uuid } from './common'

export const AccountRole = z.enum(['owner', 'admin', 'member'])
/** As a member limited to chosen projects reads it, a list leaves out the projects hidden from them. */
export const ProjectAccess = projectAccessSchema
export const AccountMember = z.object({ user_id: uuid, email: z.string(), name: z.string(), role: AccountRole, project_access: ProjectAccess, joined_at: isoDate })
export const PendingInvitation = z.object({ id: z.string(), email: z.string(), role: z.enum(['admin', 'member']), project_access: ProjectAccess, expires_at: isoDate, created_at: isoDate })

/** Counts of an account, and a plan's limits on them (null: no limit). */
export const PlanUsage = z.object({
  projects: z.number().int(),
  reports: z.number().int(),
  upload_bytes: z.number().int().describe("The upload quota's counter: only grows"),
  seats: z.number().int(),
  storage_bytes: z.number().int().describe("Bytes of the account's files stored now (screenshots, attachments, replays)"),
})
export const PlanLimits = z.object({
  projects: z.number().int().nullable(),
  reports: z.number().int().nullable(),
  upload_bytes: z.number().int().nullable(),
  seats: z.number().int().nullable(),
})
export const PlanFeatures = z.record(z.string(), z.boolean()).describe('Feature key to whether the plan carries it')

export const AccountResponse = z.object({
  id: uuid,
  name: z.string(),
  your_role: AccountRole,
  your_project_access: ProjectAccess,
  plan: z.object({ key: z.string(), name: z.string(), tier: z.number().int() }),
  members: z.array(AccountMember),
  pending_invitations: z.array(PendingInvitation),
  projects: z.array(z.object({ id: uuid, name: z.string(), slug: z.string() })).describe('The projects you see'),
  usage: PlanUsage,
  limits: PlanLimits,
  features: PlanFeatures,
})

export const RosterResponse = z.object({ members: z.array(AccountMember), pending_invitations: z.array(PendingInvitation) })
export const InvitationCreatedResponse = z.object({
  id: z.string(),
  token: z.string().describe('Shown once; the invitee accepts with it'),
  email: z.string(),
  role: z.enum(['admin', 'member']),
  project_access: ProjectAccess,
  expires_at: isoDate,
})
export const InvitationAcceptedResponse = z.object({ account_id: uuid, account_name: z.string(), role: z.enum(['admin', 'member']) })

// Types of the `data` the routes answer, for clients (the web app) that import them.
export type AccountResponse = z.output<typeof AccountResponse>
export type RosterResponse = z.output<typeof RosterResponse>
export type InvitationCreatedResponse = z.output<typeof InvitationCreatedResponse>
export type InvitationAcceptedResponse = z.output<typeof InvitationAcceptedResponse>

export const teamDocs: OperationDocs = {
  'GET /api/account': { data: AccountResponse },
  'PATCH /api/account': { data: MessageResponse },
  'GET /api/account/members': { data: RosterResponse },
  'PATCH /api/account/members/{userId}': { data: MessageResponse },
  'DELETE /api/account/members/{userId}': { data: MessageResponse },
  'POST /api/account/invites': { status: 201, data: InvitationCreatedResponse, errors: [409] },
  'POST /api/account/invites/accept': { data: InvitationAcceptedResponse, errors: [409] },
  'DELETE /api/account/invites/{inviteId}': { data: MessageResponse },
  'GET /api/projects/{slug}/members': { data: RosterResponse },
  'PATCH /api/projects/{slug}/members/{userId}': { data: MessageResponse },
  'DELETE /api/projects/{slug}/members/{userId}': { data: MessageResponse },
  'POST /api/projects/{slug}/invites': { status: 201, data: InvitationCreatedResponse, errors: [409] },
  'DELETE /api/projects/{slug}/invites/{inviteId}': { data: MessageResponse },
  'POST /api/invites/accept': { data: InvitationAcceptedResponse, errors: [409] },
}
