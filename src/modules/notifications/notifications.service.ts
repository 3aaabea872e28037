import { and, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest } from '../../http/errors'
import { accountMembers } from '../accounts/accounts.table'
import { canSeeProject } from '../accounts/project-access'
import { hasPermission } from '../permissions/permissions.catalog'
import { users } from '../auth/auth.table'
import { PREFERENCE_KEYS, PREFERENCES, type PreferenceKey, type UpdatePreferencesBody } from './notifications.schemas'
import { notificationPreferences } from './notifications.table'
import { readUnsubscribeToken } from './notifications.tokens'

export type Preferences = Record<PreferenceKey, boolean>

const DEFAULTS = Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, true])) as Preferences

/** A user's five mail preferences; all on until changed. */
export function getPreferences(db: DbOrTx, userId: string): Preferences {
  const row = db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId)).get()
  if (!row) return { ...DEFAULTS }
  return Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, row[PREFERENCES[k]]])) as Preferences
}

/** Sets the given preferences, leaving the others; 400 when the body sets none. */
export function updatePreferences(deps: Pick<AppDeps, 'db' | 'clock'>, userId: string, body: UpdatePreferencesBody): Preferences {
  const given = PREFERENCE_KEYS.filter((k) => typeof body[k] === 'boolean')
  if (given.length === 0) throw badRequest(`no valid fields to update (send any of ${PREFERENCE_KEYS.join(', ')})`)
  const set = Object.fromEntries(given.map((k) => [PREFERENCES[k], body[k]]))
  const now = deps.clock.now()
  deps.db
    .insert(notificationPreferences)
    .values({ userId, ...set, updatedAt: now })
    .onConflictDoUpdate({ target: notificationPreferences.userId, set: { ...set, updatedAt: now } })
    .run()
  return getPreferences(deps.db, userId)
}

const LABELS: Record<PreferenceKey, string> = {
  email_bug_created: 'new report',
  email_bug_status: 'status change',
  email_bug_assigned: 'assignment',
  email_bug_commented: 'new comment',
  email_weekly_digest: 'weekly digest',
}

/** The user and preference of a valid unsubscribe token whose user still exists, else null. */
function unsubscribeTarget(db: DbOrTx, token: string | undefined) {
  const target = token ? readUnsubscribeToken(db, token) : null
  return target && db.select({ id: users.id }).from(users).where(eq(users.id, target.userId)).get() ? target : null
}

/** What a valid unsubscribe token stops, as its page asks it ("new report"), else null. */
export function unsubscribeSubject(db: DbOrTx, token: string | undefined): string | null {
  const target = unsubscribeTarget(db, token)
  return target ? LABELS[target.preference] : null
}

/** Turns off the preference a signed unsubscribe link names; 400 for a link that is not valid. */
export function unsubscribe(deps: Pick<AppDeps, 'db' | 'clock'>, token: string | undefined): { message: string } {
  const target = unsubscribeTarget(deps.db, token)
  if (!target) throw badRequest('this unsubscribe link is not valid')
  updatePreferences(deps, target.userId, { [target.preference]: false })
  return { message: `You will no longer receive ${LABELS[target.preference]} emails.` }
}

export interface Recipient {
  id: string
  email: string
  name: string
  /** The projects the member is limited to; null: every project of the account. */
  projectIds: string[] | null
}

/**
 * Of `userIds`, those still on `accountId`'s team who see `projectId`, hold `bugs.view` and want mails of
 * kind `preference` (no preferences row counts as yes), excluding `exceptId` (who caused the mail).
 * `projectId` null (the weekly digest, which scopes each mail to what its recipient sees): every member.
 * Every team mail shows report titles or content, so it asks what the report list asks.
 */
export function recipientsFor(db: DbOrTx, o: { accountId: string; projectId: string | null; userIds: string[] | 'all'; preference: PreferenceKey; exceptId?: string | null }): Recipient[] {
  if (o.userIds !== 'all' && o.userIds.length === 0) return []
  const rows = db
    .select({ id: users.id, email: users.email, name: users.name, displayName: users.displayName, projectIds: accountMembers.projectIds, role: accountMembers.role, overrides: accountMembers.permissionOverrides, pref: notificationPreferences[PREFERENCES[o.preference]] })
    .from(accountMembers)
    .innerJoin(users, eq(users.id, accountMembers.userId))
    .leftJoin(notificationPreferences, eq(notificationPreferences.userId, users.id))
    .where(and(eq(accountMembers.accountId, o.accountId), o.userIds === 'all' ? undefined : inArray(users.id, o.userIds)))
    .all()
  return rows
    .filter((r) => r.pref !== false && r.id !== o.exceptId && hasPermission(r.role, r.overrides, 'bugs.view') && (o.projectId === null || canSeeProject(r.projectIds, o.projectId)))
    .map((r) => ({ id: r.id, email: r.email, name: r.displayName ?? r.name, projectIds: r.projectIds }))
}
