import type { AccountRole, PermissionMap } from '../api/types'

/** The overrides that turn a role's defaults into the wanted permissions: only the keys that differ. */
export function overridesFor(wanted: PermissionMap, defaults: PermissionMap): PermissionMap {
  const out: PermissionMap = {}
  for (const key of Object.keys(wanted) as (keyof PermissionMap)[]) {
    if (Boolean(wanted[key]) !== Boolean(defaults[key])) out[key] = Boolean(wanted[key])
  }
  return out
}

/** Who may edit whose permissions: never the owner's nor one's own; an admin's only by the owner; needs `team.permissions`. */
export function permissionsEditable(actorRole: AccountRole | undefined, targetRole: AccountRole, actorHasPermission: boolean, self = false): string | undefined {
  if (targetRole === 'owner') return 'The owner always has every permission.'
  if (self) return 'Nobody changes their own permissions: ask an owner or admin of the account.'
  if (!actorHasPermission) return 'You need the “Edit permissions” permission: ask an owner or admin of the account.'
  if (targetRole === 'admin' && actorRole !== 'owner') return "Only the account owner edits an admin's permissions."
  return undefined
}

/** The invitation link a teammate opens to join (the same one the invitation email carries). */
export function inviteLink(origin: string, token: string): string {
  return `${origin}/invite?token=${encodeURIComponent(token)}`
}
