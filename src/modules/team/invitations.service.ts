import type { AppDeps } from '../../app-deps'
import { badRequest, conflict, forbidden, notFound } from '../../http/errors'
import { DAY } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { createAccountsRepository } from '../auth/accounts.repository'
import { accessOf, type ProjectAccess } from '../auth/project-access'
import { recordAudit } from '../activity/activity.service'
import { createAuthRepository } from '../auth/auth.repository'
import type { User } from '../auth/auth.sessions'
import { exceeds, limitOwner, PlanLimitError, PLANS, type PlanKey } from '../auth/plans'
import { createProjectsRepository } from '../projects/projects.repository'
import { checkedAccess } from './project-access.service'
import { seatsUsed, type Actor } from './team.service'
import { createTeamRepository } from './team.repository'

/** How long an invitation link stays valid. */
export const INVITE_TTL_MS = 7 * DAY

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Invites `email` into the actor's account: takes a seat until accepted, revoked or expired, and mails
 * a single-use link valid for 7 days. The token is returned once; only its hash is stored. The invitee
 * will see the projects of `project_access`, by default those the inviter sees; an inviter limited to
 * chosen projects invites only into those.
 */
export async function createInvitation(deps: AppDeps, actor: Actor, input: { email: string; role: 'admin' | 'member'; project_access?: ProjectAccess }) {
  const { db, clock, config } = deps
  const now = clock.now()
  const email = input.email.trim().toLowerCase()
  const account = actor.account
  const inviterIds = actor.membership.projectIds
  if (input.role === 'admin' && actor.membership.role !== 'owner') throw forbidden('only the account owner can invite admins')
  const access = input.project_access ?? accessOf(inviterIds)
  if (access === 'all' && inviterIds) throw forbidden('you see only some projects of this account, so you can invite people only into those (list them in project_access)')
  const projectIds = await checkedAccess(db, { accountId: account.id, role: input.role, access, viewerIds: inviterIds })
  const authRepo = createAuthRepository({ db })
  const team = createTeamRepository({ db })
  const invitee = await authRepo.userByEmail(email)
  if (invitee && (await createAccountsRepository({ db }).membership(account.id, invitee.id))) throw conflict(`${email} is already a member of this account`)
  if (await team.pendingFor(account.id, email, now)) throw conflict(`${email} has already been invited`)
  const plan = PLANS[account.plan as PlanKey]
  if (exceeds((await seatsUsed(db, account.id, now)) + 1, plan.limits.seats)) {
    throw new PlanLimitError((plans) => `${limitOwner(plan, plans)}'s limit of ${plan.limits.seats} seats is reached (members and pending invitations)`, 'invite more')
  }
  const token = randomToken(32)
  const id = newId()
  const expiresAt = new Date(now.getTime() + INVITE_TTL_MS)
  const inviter = (await authRepo.userById(actor.userId))?.name ?? 'A teammate'
  const link = `${config.publicUrl}/invite?token=${encodeURIComponent(token)}`
  const as = input.role === 'admin' ? 'an admin' : 'a member'
  const scope = projectIds ? await createProjectsRepository({ db }).namesOf(projectIds) : null
  const seeing = scope ? ` with access to ${scope.length ? scope.join(', ') : 'no project yet'}` : ''
  await db.write(async (tx) => {
    await team.insert({ id, accountId: account.id, email, role: input.role, projectIds, tokenHash: sha256Hex(token), invitedBy: actor.userId, expiresAt, createdAt: now })
    await recordAudit(tx, now, { accountId: account.id, projectId: actor.projectId, actorId: actor.userId, action: 'invite.created', target: email, details: { invite_id: id, role: input.role, project_access: accessOf(projectIds) } })
    await deps.mailer.send(tx, {
      to: email,
      subject: `${inviter} invited you to ${account.name} on Glitchbox`,
      text: `${inviter} invited you to join ${account.name} on Glitchbox as ${as}${seeing}.\n\nAccept the invitation (valid for 7 days):\n${link}\n\nIf you did not expect this, ignore this mail.`,
      html: `<p>${escapeHtml(inviter)} invited you to join <strong>${escapeHtml(account.name)}</strong> on Glitchbox as ${as}${escapeHtml(seeing)}.</p><p><a href="${escapeHtml(link)}">Accept the invitation</a> (valid for 7 days).</p><p>If you did not expect this, ignore this mail.</p>`,
    })
  })
  return { id, token, email, role: input.role, project_access: accessOf(projectIds), expires_at: expiresAt.toISOString() }
}

/**
 * Accepts an invitation as the signed-in user: their email must be the invited one. Adds the
 * membership and makes the account the one they work in.
 */
export async function acceptInvitation(deps: AppDeps, user: User, token: string) {
  const now = deps.clock.now()
  const team = createTeamRepository({ db: deps.db })
  const accountsRepo = createAccountsRepository({ db: deps.db })
  const invite = await team.byTokenHash(sha256Hex(token))
  if (!invite || invite.revokedAt) throw badRequest('invalid invitation token')
  if (invite.acceptedAt) throw badRequest('this invitation has already been used')
  if (invite.expiresAt.getTime() <= now.getTime()) throw badRequest('this invitation has expired')
  if (invite.email !== user.email.toLowerCase()) throw forbidden('this invitation was sent to a different email address')
  const account = await accountsRepo.byId(invite.accountId)
  if (!account) throw badRequest('invalid invitation token')
  const role = await deps.db.write(async (tx) => {
    // Claim the invitation first: of two concurrent accepts only one sees accepted_at still null.
    if (!(await team.claim(invite.id, user.id, now))) throw badRequest('this invitation has already been used')
    const existing = await accountsRepo.membership(account.id, user.id)
    if (!existing) await accountsRepo.addMember({ accountId: account.id, userId: user.id, role: invite.role, projectIds: invite.projectIds, createdAt: now })
    await createAuthRepository({ db: deps.db }).setCurrentAccount(user.id, account.id, now)
    const role: string = existing?.role ?? invite.role
    await recordAudit(tx, now, { accountId: account.id, actorId: user.id, action: 'invite.accepted', target: invite.email, details: { invite_id: invite.id, role } })
    return role
  })
  return { account_id: account.id, account_name: account.name, role }
}

/** Revokes a pending invitation of the actor's account; its link stops working and the seat is freed. */
export async function revokeInvitation(deps: AppDeps, actor: Actor, inviteId: string): Promise<void> {
  const now = deps.clock.now()
  const team = createTeamRepository({ db: deps.db })
  await deps.db.write(async (tx) => {
    const invite = await team.inAccount(actor.account.id, inviteId)
    if (!invite || invite.revokedAt) throw notFound('invitation not found')
    if (invite.acceptedAt) throw badRequest('this invitation has already been accepted')
    await team.revoke(inviteId, now)
    await recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action: 'invite.revoked', target: invite.email, details: { invite_id: inviteId } })
  })
}
