import type { PermissionKey } from './types'

/** Names of the permissions, for "you need …" reasons (the catalog's names, as /api/permissions/available gives them). */
export const PERMISSION_NAMES: Record<PermissionKey, string> = {
  'bugs.view': 'View reports',
  'bugs.create': 'File reports',
  'bugs.edit': 'Edit reports',
  'bugs.assign': 'Assign reports',
  'bugs.delete': 'Delete reports',
  'comments.create': 'Comment',
  'labels.manage': 'Manage labels',
  'project.settings': 'Project settings',
  'project.integrations': 'Integrations',
  'webhooks.manage': 'Webhooks',
  'team.invite': 'Invite teammates',
  'team.permissions': 'Edit permissions',
  'analytics.view': 'Analytics',
  'billing.manage': 'Billing',
}

/** The sentence shown on whatever a member may not use. */
export const missingPermission = (key: PermissionKey) => `You need the “${PERMISSION_NAMES[key]}” permission: ask an owner or admin of the account.`

const REFUSAL = /^you need the ([a-z]+\.[a-z]+) permission$/

/** The API's 403 "you need the bugs.view permission" in words; any other message as it is. */
export function explainRefusal(message: string): string {
  const key = REFUSAL.exec(message)?.[1]
  return key && key in PERMISSION_NAMES ? missingPermission(key as PermissionKey) : message
}
