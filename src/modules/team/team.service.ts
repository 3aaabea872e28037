import { and, asc, count, eq, gt, isNull } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, forbidden, notFound } from '../../http/errors'
import type { Account, Membership } from '../../http/auth.plugin'
import { switchToOwnAccount } from '../accounts/accounts.service'
import { accessOf, accessSeenBy, canSeeProject, type ProjectAccess, visibleProjectsWhere } from '../accounts/project-access'
import { accountMembers, accounts } from '../accounts/accounts.table'
import { recordAudit } from '../activity/activity.service'
import { users } from '../auth/auth.table'
import { featuresOf, limitsView, PLANS, type PlanKey } from '../billing/plans'
import { accountStorageBytes } from '../retention/retention.stats'
import { projects } from '../projects/projects.table'
import { checkedAccess } from './project-access.service'
import { invitations } from './team.table'

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
export function listMembers(db: DbOrTx, accountId: string, o: { viewerIds?: string[] | null; projectId?: string } = {}) {
  return db
    .select({ user_id: users.id, email: users.email, name: users.name, role: accountMembers.role, projectIds: accountMembers.projectIds, joined_at: accountMembers.createdAt })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .where(eq(accountMembers.accountId, accountId))
    .orderBy(asc(accountMembers.createdAt), asc(users.email))
    .all()
    .filter((m) => !o.projectId || canSeeProject(m.projectIds, o.projectId))
    .map(({ projectIds, ...m }) => ({ ...m, project_access: accessSeenBy(accessOf(projectIds), o.viewerIds), joined_at: iso(m.joined_at) }))
}

/** Invitations neither accepted, revoked nor expired; `viewerIds` as for `listMembers`. */
export function pendingInvitations(db: DbOrTx, accountId: string, now: Date, viewerIds: string[] | null = null) {
  return db
    .select({ id: invitations.id, email: invitations.email, role: invitations.role, projectIds: invitations.projectIds, expires_at: invitations.expiresAt, created_at: invitations.createdAt })
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt))
    .all()
    .map(({ projectIds, ...i }) => ({ ...i, project_access: accessSeenBy(accessOf(projectIds), viewerIds), expires_at: iso(i.expires_at), created_at: iso(i.created_at) }))
}

/** Seats in use: members plus pending invitations. */
export function seatsUsed(db: DbOrTx, accountId: string, now: Date): number {
  const members = db.select({ n: count() }).from(accountMembers).where(eq(accountMembers.accountId, accountId)).get()?.n ?? 0
  return members + pendingInvitations(db, accountId, now).length
}

/** Usage counters of an account, as `/api/account` and `/api/billing/subscription` report them. */
export function accountUsage(db: DbOrTx, account: Account, now: Date) {
  const projectCount = db.select({ n: count() }).from(projects).where(eq(projects.accountId, account.id)).get()?.n ?? 0
  return {
    projects: projectCount,
    reports: account.reportsCreated,
    upload_bytes: account.uploadBytesUsed,
    seats: seatsUsed(db, account.id, now),
    // What the account's files take on disk now (upload_bytes only grows: it is the quota's counter).
    storage_bytes: accountStorageBytes(db, account.id),
  }
}

/** The account as its members see it: plan, roster, the projects they see, usage and limits. */
export function accountView(db: DbOrTx, actor: Actor, now: Date) {
  const { account } = actor
  const plan = PLANS[account.plan as PlanKey]
  const viewerIds = actor.membership.projectIds
  return {
    id: account.id,
    name: account.name,
    your_role: actor.membership.role,
    your_project_access: accessOf(viewerIds),
    plan: { key: plan.key, name: plan.name, tier: plan.tier },
    members: listMembers(db, account.id, { viewerIds }),
    pending_invitations: pendingInvitations(db, account.id, now, viewerIds),
    projects: db
      .select({ id: projects.id, name: projects.name, slug: projects.slug })
      .from(projects)
      .where(and(eq(projects.accountId, account.id), visibleProjectsWhere(viewerIds)))
      .orderBy(asc(projects.createdAt))
      .all(),
    usage: accountUsage(db, account, now),
    limits: limitsView(plan.key),
    features: featuresOf(plan.key),
  }
}

const requireManager = (actor: Actor, what: string) => {
  if (actor.membership.role === 'member') throw forbidden(`only the account owner or an admin can ${what}`)
}

/** Renames the account; owner or admin only (spec section 5 rule 7). */
export function renameAccount(deps: AppDeps, actor: Actor, name: string): void {
  requireManager(actor, 'rename the account')
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.update(accounts).set({ name, updatedAt: now }).where(eq(accounts.id, actor.account.id)).run()
    recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action: 'account.renamed', details: { from: actor.account.name, to: name } })
  })
}

/** The membership of `userId` in the account, or 404. */
export function memberOf(db: DbOrTx, accountId: string, userId: string): Membership {
  const m = db
    .select()
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, userId)))
    .get()
  if (!m) throw notFound('member not found')
  return m
}

/**
 * Changes a member's role and the projects they see. The owner is never changed, only the owner promotes
 * or demotes admins, and only the owner or an admin sets project access. Owners and admins see every
 * project, so a promotion lifts a member's limit.
 */
export function updateMember(deps: AppDeps, actor: Actor, userId: string, input: { role?: 'admin' | 'member'; project_access?: ProjectAccess }): void {
  if (input.role === undefined && input.project_access === undefined) throw badRequest('no valid fields to update (send role or project_access)')
  requireManager(actor, input.role === undefined ? "change which projects members see" : "change members' roles")
  const target = memberOf(deps.db, actor.account.id, userId)
  const role = input.role ?? target.role
  if (target.role === 'owner') throw forbidden(input.role === undefined ? 'the account owner sees every project' : "the account owner's role cannot be changed")
  if (role !== target.role && (target.role === 'admin' || role === 'admin') && actor.membership.role !== 'owner') throw forbidden('only the account owner can promote or demote admins')
  const access = input.project_access ?? (role === 'member' ? accessOf(target.projectIds) : 'all')
  const projectIds = checkedAccess(deps.db, { accountId: actor.account.id, role, access, viewerIds: actor.membership.projectIds })
  const sameAccess = JSON.stringify(projectIds) === JSON.stringify(target.projectIds ?? null)
  if (role === target.role && sameAccess) return
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.update(accountMembers)
      .set({ role, projectIds })
      .where(and(eq(accountMembers.accountId, actor.account.id), eq(accountMembers.userId, userId)))
      .run()
    const audit = { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, target: userId }
    if (role !== target.role) recordAudit(tx, now, { ...audit, action: 'member.role_changed', details: { from: target.role, to: role } })
    if (!sameAccess) recordAudit(tx, now, { ...audit, action: 'member.project_access_changed', details: { from: accessOf(target.projectIds), to: accessOf(projectIds) } })
  })
}

/**
 * Removes a member from the account and so from all its projects; removing yourself leaves the account.
 * The owner can be neither removed nor leave; only the owner removes admins. Whoever is removed and was
 * working in the account goes back to an account of their own.
 */
export function removeMember(deps: AppDeps, actor: Actor, userId: string): { left: boolean } {
  const target = memberOf(deps.db, actor.account.id, userId)
  const leaving = userId === actor.userId
  if (target.role === 'owner') throw forbidden(leaving ? 'the account owner cannot leave the account' : 'the account owner cannot be removed')
  if (!leaving) {
    requireManager(actor, 'remove members')
    if (target.role === 'admin' && actor.membership.role !== 'owner') throw forbidden('only the account owner can remove an admin')
  }
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.delete(accountMembers)
      .where(and(eq(accountMembers.accountId, actor.account.id), eq(accountMembers.userId, userId)))
      .run()
    const user = tx.select({ current: users.currentAccountId }).from(users).where(eq(users.id, userId)).get()
    if (user?.current === actor.account.id) switchToOwnAccount(tx, userId, deps.config.defaultPlan, now)
    recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action: leaving ? 'member.left' : 'member.removed', target: userId, details: { role: target.role } })
  })
  return { left: leaving }
}
