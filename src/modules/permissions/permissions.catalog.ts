import type { AccountRole } from '../auth/accounts.repository'

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

export type PermissionGroup = keyof typeof PERMISSION_GROUPS
export type PermissionKey = (typeof PERMISSION_GROUPS)[PermissionGroup][number]
/** Every key of the catalog, in group order. */
export const PERMISSION_KEYS = Object.values(PERMISSION_GROUPS).flat() as PermissionKey[]

/** Display names of the groups and keys, served by `GET /api/permissions/available`. */
export const GROUP_NAMES: Record<PermissionGroup, string> = {
  bugs: 'Bug reports',
  comments: 'Comments',
  labels: 'Labels',
  project: 'Project settings',
  team: 'Team',
  analytics: 'Analytics',
  billing: 'Billing',
}

/** Display name and description of every key. */
export const PERMISSION_INFO: Record<PermissionKey, { name: string; description: string }> = {
  'bugs.view': { name: 'View reports', description: "List, read and export bug reports; see a report's linked tracker and repository issues and search the repository's issues; read templates, SLA and alert rules; rate reports; keep saved filters and views" },
  'bugs.create': { name: 'File reports', description: 'File and import bug reports' },
  'bugs.edit': { name: 'Edit reports', description: 'Change report fields, dependencies, due dates and custom field values; file reports in an issue tracker' },
  'bugs.assign': { name: 'Assign reports', description: 'Change who a report is assigned to' },
  'bugs.delete': { name: 'Delete reports', description: 'Delete reports, one by one or in bulk' },
  'comments.create': { name: 'Comment', description: 'Add comments to reports' },
  'labels.manage': { name: 'Manage labels', description: 'Create, change and delete labels and put them on reports' },
  'project.settings': { name: 'Project settings', description: 'Change project settings, public pages, templates, custom fields, SLA and alert rules, and the API key; write the changelog and read its drafts' },
  'project.integrations': {
    name: 'Integrations',
    description: 'Create, change, test and remove integrations and chat channels; read their deliveries and credential-like settings (without it, a hint); reply to store reviews',
  },
  'webhooks.manage': { name: 'Webhooks', description: 'Create, test and remove generic webhooks; read their deliveries, full URLs and signing secrets (without it: the host and path, and a hint of the secret)' },
  'team.invite': { name: 'Invite teammates', description: 'Invite people to the account and revoke invitations' },
  'team.permissions': { name: 'Edit permissions', description: 'Change the permissions of other members' },
  'analytics.view': { name: 'Analytics', description: 'Read analytics, players and sessions; keep notes on players and confirm or dismiss regressions' },
  'billing.manage': { name: 'Billing', description: 'Change the plan, payment methods and read invoices' },
}

const allKeys = (granted: (k: PermissionKey) => boolean) =>
  Object.fromEntries(PERMISSION_KEYS.map((k) => [k, granted(k)])) as Record<PermissionKey, boolean>

const MEMBER_GRANTS = new Set<PermissionKey>(['bugs.view', 'bugs.create', 'bugs.edit', 'bugs.assign', 'comments.create', 'labels.manage', 'analytics.view'])

/** Role defaults. Owners hold everything and are never edited; members work on reports but not on settings, team or billing. */
export const ROLE_DEFAULTS: Record<AccountRole, Record<PermissionKey, boolean>> = {
  owner: allKeys(() => true),
  admin: allKeys(() => true),
  member: allKeys((k) => MEMBER_GRANTS.has(k)),
}

/** Whether a member with `role` and `overrides` holds `key`. */
export function hasPermission(role: AccountRole, overrides: Record<string, boolean>, key: PermissionKey): boolean {
  if (role === 'owner') return true
  return overrides[key] ?? ROLE_DEFAULTS[role][key]
}

/** Every key → whether a member with `role` and `overrides` holds it. */
export function effectivePermissions(role: AccountRole, overrides: Record<string, boolean>): Record<PermissionKey, boolean> {
  return allKeys((k) => hasPermission(role, overrides, k))
}

/** Whether `k` is a key of the catalog. */
export const isPermissionKey = (k: string): k is PermissionKey => (PERMISSION_KEYS as string[]).includes(k)
/** Whether `g` is a group of the catalog. */
export const isPermissionGroup = (g: string): g is PermissionGroup => Object.hasOwn(PERMISSION_GROUPS, g)
