import type { AppDeps } from '../../app-deps'
import type { Db, Seam } from '../../db/client'
import { badRequest, forbidden, notFound } from '../../http/errors'
import type { Account, Membership } from '../auth/accounts.repository'
import { accountStorageBytes, switchToOwnAccount } from '../auth/accounts.service'
import { createAccountsRepository } from '../auth/accounts.repository'
import { accessOf, accessSeenBy, canSeeProject, type ProjectAccess } from '../auth/project-access'
import { recordAudit } from '../activity/activity.service'
import { createAuthRepository } from '../auth/auth.repository'
import { featuresOf, limitsView, PLANS, type PlanKey } from '../auth/plans'
import { createProjectsRepository } from '../projects/projects.repository'
import { checkedAccess } from './project-access.service'
import { createTeamRepository } from './team.repository'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** Who is acting, in which account, with which membership. */
export interface Actor {
  userId: string
  account: Account
  membership: Membership
  /** Set when acting through a project-scoped route, so the entry shows in that project's audit log. */
  projectId?: string
}

/**
 * The account's members, oldest first; with `projectId`, only those who see that project. `viewerIds`
 * (a limited viewer's projects) hides from their access lists the projects the viewer does not see.
 */
export async function listMembers(db: Seam, accountId: string, o: { viewerIds?: string[] | null; projectId?: string } = {}) {
  const members = (await createAccountsRepository({ db }).members(accountId)).filter((m) => !o.projectId || canSeeProject(m.projectIds, o.projectId))
  const contacts = await createAuthRepository({ db }).contactsOf(members.map((m) => m.userId))
  return members
    .flatMap((m) => {
      const c = contacts.get(m.userId)
      return c ? [{ user_id: m.userId, email: c.email, name: c.name, role: m.role, project_access: accessSeenBy(accessOf(m.projectIds), o.viewerIds), joined: m.createdAt }] : []
    })
    .sort((a, b) => a.joined.getTime() - b.joined.getTime() || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
    .map(({ joined, ...m }) => ({ ...m, joined_at: iso(joined) }))
}

/** Invitations neither accepted, revoked nor expired; `viewerIds` as for `listMembers`. */
export async function pendingInvitations(db: Seam, accountId: string, now: Date, viewerIds: string[] | null = null) {
  return (await createTeamRepository({ db }).pending(accountId, now)).map((i) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    project_access: accessSeenBy(accessOf(i.projectIds), viewerIds),
    expires_at: iso(i.expiresAt),
    created_at: iso(i.createdAt),
  }))
}

/** Seats in use: members plus pending invitations. */
export async function seatsUsed(db: Seam, accountId: string, now: Date): Promise<number> {
  const [members, pending] = await Promise.all([createAccountsRepository({ db }).memberCount(accountId), createTeamRepository({ db }).pending(accountId, now)])
  return members + pending.length
}

/** Usage counters of an account, as `/api/account` and `/api/billing/subscription` report them. */
export async function accountUsage(db: Db, account: Account, now: Date) {
  const [projectCount, seats] = await Promise.all([createProjectsRepository({ db }).countInAccount(account.id), seatsUsed(db, account.id, now)])
  return {
    projects: projectCount,
    reports: account.reportsCreated,
    upload_bytes: account.uploadBytesUsed,
    seats,
    // What the account's files take on disk now (upload_bytes only grows: it is the quota's counter).
    // On the writer's connection: the first read of an account's storage counts it and stores the count.
    storage_bytes: await accountStorageBytes(db, account.id),
  }
}

/** The account as its members see it: plan, roster, the projects they see, usage and limits. */
export async function accountView(db: Db, actor: Actor, now: Date) {
  const { account } = actor
  const plan = PLANS[account.plan as PlanKey]
  const viewerIds = actor.membership.projectIds
  const [members, pending, projects, usage] = await Promise.all([
    listMembers(db, account.id, { viewerIds }),
    pendingInvitations(db, account.id, now, viewerIds),
    createProjectsRepository({ db }).listInAccount(account.id, viewerIds),
    accountUsage(db, account, now),
  ])
  return {
    id: account.id,
    name: account.name,
    your_role: actor.membership.role,
    your_project_access: accessOf(viewerIds),
    plan: { key: plan.key, name: plan.name, tier: plan.tier },
    members,
    pending_invitations: pending,
    projects: projects.map((p) => ({ id: p.id, name: p.name, slug: p.slug })),
    usage,
    limits: limitsView(plan.key),
    features: featuresOf(plan.key),
  }
}

const requireManager = (actor: Actor, what: string) => {
  if (actor.membership.role === 'member') throw forbidden(`only the account owner or an admin can ${what}`)
}

/** Renames the account; owner or admin only (spec section 5 rule 7). */
export async function renameAccount(deps: AppDeps, actor: Actor, name: string): Promise<void> {
  requireManager(actor, 'rename the account')
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createAccountsRepository({ db: deps.db }).update(actor.account.id, { name, updatedAt: now })
    await recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action: 'account.renamed', details: { from: actor.account.name, to: name } })
  })
}

/** The membership of `userId` in the account, or 404. */
export async function memberOf(db: Seam, accountId: string, userId: string): Promise<Membership> {
  const m = await createAccountsRepository({ db }).membership(accountId, userId)
  if (!m) throw notFound('member not found')
  return m
}

/**
 * Changes a member's role and the projects they see. The owner is never changed, only the owner promotes
 * or demotes admins, and only the owner or an admin sets project access. Owners and admins see every
 * project, so a promotion lifts a member's limit.
 */
export async function updateMember(deps: AppDeps, actor: Actor, userId: string, input: { role?: 'admin' | 'member'; project_access?: ProjectAccess }): Promise<void> {
  if (input.role === undefined && input.project_access === undefined) throw badRequest('no valid fields to update (send role or project_access)')
  requireManager(actor, input.role === undefined ? "change which projects members see" : "change members' roles")
  const target = await memberOf(deps.db, actor.account.id, userId)
  const role = input.role ?? target.role
  if (target.role === 'owner') throw forbidden(input.role === undefined ? 'the account owner sees every project' : "the account owner's role cannot be changed")
  if (role !== target.role && (target.role === 'admin' || role === 'admin') && actor.membership.role !== 'owner') throw forbidden('only the account owner can promote or demote admins')
  const access = input.project_access ?? (role === 'member' ? accessOf(target.projectIds) : 'all')
  const projectIds = await checkedAccess(deps.db, { accountId: actor.account.id, role, access, viewerIds: actor.membership.projectIds })
  const sameAccess = JSON.stringify(projectIds) === JSON.stringify(target.projectIds ?? null)
  if (role === target.role && sameAccess) return
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createAccountsRepository({ db: deps.db }).updateMember(actor.account.id, userId, { role, projectIds })
    const audit = { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, target: userId }
    if (role !== target.role) await recordAudit(tx, now, { ...audit, action: 'member.role_changed', details: { from: target.role, to: role } })
    if (!sameAccess) await recordAudit(tx, now, { ...audit, action: 'member.project_access_changed', details: { from: accessOf(target.projectIds), to: accessOf(projectIds) } })
  })
}

/**
 * Removes a member from the account and so from all its projects; removing yourself leaves the account.
 * The owner can be neither removed nor leave; only the owner removes admins. Whoever is removed and was
 * working in the account goes back to an account of their own.
 */
export async function removeMember(deps: AppDeps, actor: Actor, userId: string): Promise<{ left: boolean }> {
  const target = await memberOf(deps.db, actor.account.id, userId)
  const leaving = userId === actor.userId
  if (target.role === 'owner') throw forbidden(leaving ? 'the account owner cannot leave the account' : 'the account owner cannot be removed')
  if (!leaving) {
    requireManager(actor, 'remove members')
    if (target.role === 'admin' && actor.membership.role !== 'owner') throw forbidden('only the account owner can remove an admin')
  }
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createAccountsRepository({ db: deps.db }).removeMember(actor.account.id, userId)
    const user = await createAuthRepository({ db: deps.db }).userById(userId)
    if (user?.currentAccountId === actor.account.id) await switchToOwnAccount(deps.db, userId, deps.config.defaultPlan, now)
    await recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action: leaving ? 'member.left' : 'member.removed', target: userId, details: { role: target.role } })
  })
  return { left: leaving }
}
