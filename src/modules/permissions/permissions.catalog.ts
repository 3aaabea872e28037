import type { AccountRole } from '../accounts/accounts.table'

/** The permission catalog: groups of keys, each with its default per role. */
export const PERMISSION_GROUPS = {
  bugs: ['bugs.view', 'bugs.create', 'bugs.edit', 'bugs.assign', 'bugs.delete'],
  comments: ['comments.create'],
  labels: ['labels.manage'],
  project: ['project.settings', 'project.integrations', 'webhooks.manage'],
  team: ['team.invite', 'team.permissions'],
  analytics: ['analytics.view'],
  billing: ['billing.manage'],
} as const

export type PermissionKey = (typeof PERMISSION_GROUPS)[keyof typeof PERMISSION_GROUPS][number]
export const PERMISSION_KEYS = Object.values(PERMISSION_GROUPS).flat() as PermissionKey[]

/** Role defaults. Owners hold everything and are never edited. */
export const ROLE_DEFAULTS: Record<AccountRole, Record<PermissionKey, boolean>> = {
  owner: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as Record<PermissionKey, boolean>,
  admin: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as Record<PermissionKey, boolean>,
  member: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as Record<PermissionKey, boolean>,
}

/** Whether a member with `role` and `overrides` holds `key`. */
export function hasPermission(role: AccountRole, overrides: Record<string, boolean>, key: PermissionKey): boolean {
  if (role === 'owner') return true
  return overrides[key] ?? ROLE_DEFAULTS[role][key]
}
