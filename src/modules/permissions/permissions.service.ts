import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { badRequest, forbidden } from '../../http/errors'
import type { Membership } from '../auth/accounts.repository'
import { createAccountsRepository } from '../auth/accounts.repository'
import { accessOf, accessSeenBy } from '../auth/project-access'
import { recordAudit } from '../activity/activity.service'
import { listMembers, memberOf, type Actor } from '../team/team.service'
import { effectivePermissions, GROUP_NAMES, hasPermission, isPermissionGroup, isPermissionKey, PERMISSION_GROUPS, PERMISSION_INFO, PERMISSION_KEYS, ROLE_DEFAULTS } from './permissions.catalog'

/** The catalog as `GET /api/permissions/available` serves it. */
export function catalogView() {
  return {
    groups: Object.entries(PERMISSION_GROUPS).map(([key, keys]) => ({
      key,
      name: GROUP_NAMES[key as keyof typeof GROUP_NAMES],
      permissions: keys.map((k) => ({ key: k, ...PERMISSION_INFO[k] })),
    })),
    role_defaults: ROLE_DEFAULTS,
  }
}

/** A membership's role, effective permissions (inside the projects it sees) and project access. */
export const effectiveView = (m: Membership) => ({ role: m.role, permissions: effectivePermissions(m.role, m.permissionOverrides), project_access: accessOf(m.projectIds) })

/** One member's effective permissions and the overrides behind them, as a viewer limited to `viewerIds` sees them. */
export async function memberPermissions(db: Seam, accountId: string, userId: string, viewerIds: string[] | null = null) {
  return permissionsSeenBy(await memberOf(db, accountId, userId), viewerIds)
}

/** A membership's permissions and overrides, its project access as a viewer limited to `viewerIds` sees it. */
function permissionsSeenBy(m: Membership, viewerIds: string[] | null) {
  const view = effectiveView(m)
  return { user_id: m.userId, ...view, project_access: accessSeenBy(view.project_access, viewerIds), overrides: m.permissionOverrides }
}

/** Every member with their permissions, as a viewer limited to `viewerIds` sees them. */
export async function membersPermissions(db: Seam, accountId: string, viewerIds: string[] | null) {
  const [members, memberships] = await Promise.all([listMembers(db, accountId, { viewerIds }), createAccountsRepository({ db }).members(accountId)])
  const byUser = new Map(memberships.map((m) => [m.userId, m]))
  return members.flatMap((m) => {
    const membership = byUser.get(m.user_id)
    return membership ? [{ ...m, ...permissionsSeenBy(membership, viewerIds) }] : []
  })
}

export interface OverridesInput {
  permissions?: Record<string, boolean>
  groups?: Record<string, boolean>
  reset?: boolean
}

/** Checks that the actor may edit `target`: owners never, nobody itself, admins only by the owner. */
function editable(actor: Actor, target: Membership) {
  if (target.role === 'owner') throw forbidden("the account owner's permissions cannot be edited")
  // Otherwise `team.permissions` alone would grow into every other permission.
  if (target.userId === actor.userId) throw forbidden('you cannot change your own permissions')
  if (target.role === 'admin' && actor.membership.role !== 'owner') throw forbidden("only the account owner can edit an admin's permissions")
}

/** Checks that `next` grants `target` nothing the actor does not hold itself (revoking is always allowed). */
function grantsOnlyHeld(actor: Actor, target: Membership, next: Record<string, boolean>) {
  const before = effectivePermissions(target.role, target.permissionOverrides)
  const after = effectivePermissions(target.role, next)
  const beyond = PERMISSION_KEYS.filter((k) => after[k] && !before[k] && !hasPermission(actor.membership.role, actor.membership.permissionOverrides, k))
  if (beyond.length) throw forbidden(`you can only grant permissions you hold yourself (not ${beyond.join(', ')})`)
}

/**
 * Sets per-member overrides: `reset` drops existing ones first, then `groups` set every key of a
 * group and `permissions` set single keys (so a key wins over its group).
 */
export async function updateOverrides(deps: AppDeps, actor: Actor, userId: string, input: OverridesInput) {
  const unknownKeys = Object.keys(input.permissions ?? {}).filter((k) => !isPermissionKey(k))
  const unknownGroups = Object.keys(input.groups ?? {}).filter((g) => !isPermissionGroup(g))
  if (unknownKeys.length) throw badRequest(`unknown permission ${unknownKeys.join(', ')}`)
  if (unknownGroups.length) throw badRequest(`unknown permission group ${unknownGroups.join(', ')}`)
  const target = await memberOf(deps.db, actor.account.id, userId)
  editable(actor, target)
  const next: Record<string, boolean> = input.reset ? {} : { ...target.permissionOverrides }
  for (const [group, granted] of Object.entries(input.groups ?? {})) {
    for (const k of PERMISSION_GROUPS[group as keyof typeof PERMISSION_GROUPS]) next[k] = granted
  }
  Object.assign(next, input.permissions ?? {})
  grantsOnlyHeld(actor, target, next)
  await save(deps, actor, target, next, 'permissions.updated')
  return memberPermissions(deps.db, actor.account.id, userId, actor.membership.projectIds)
}

/** Drops a member's overrides: back to the role defaults. */
export async function resetOverrides(deps: AppDeps, actor: Actor, userId: string) {
  const target = await memberOf(deps.db, actor.account.id, userId)
  editable(actor, target)
  grantsOnlyHeld(actor, target, {})
  await save(deps, actor, target, {}, 'permissions.reset')
  return memberPermissions(deps.db, actor.account.id, userId, actor.membership.projectIds)
}

async function save(deps: AppDeps, actor: Actor, target: Membership, overrides: Record<string, boolean>, action: string) {
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await createAccountsRepository({ db: deps.db }).updateMember(target.accountId, target.userId, { permissionOverrides: overrides })
    await recordAudit(tx, now, { accountId: actor.account.id, projectId: actor.projectId, actorId: actor.userId, action, target: target.userId, details: { from: target.permissionOverrides, to: overrides } })
  })
}
