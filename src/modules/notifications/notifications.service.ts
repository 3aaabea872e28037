import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import { createAccountsRepository } from '../auth/accounts.repository'
import { canSeeProject } from '../auth/project-access'
import { createAuthRepository } from '../auth/auth.repository'
import { hasPermission } from '../permissions/permissions.catalog'
import { createNotificationsRepository } from './notifications.repository'
import { PREFERENCE_KEYS, PREFERENCES, type PreferenceKey, type UpdatePreferencesBody } from './notifications.schemas'
import { readUnsubscribeToken } from './notifications.tokens'

export type Preferences = Record<PreferenceKey, boolean>

const DEFAULTS = Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, true])) as Preferences

const repo = (deps: Pick<AppDeps, 'db'>) => createNotificationsRepository({ db: deps.db })

/** A user's five mail preferences; all on until changed. */
export async function getPreferences(deps: Pick<AppDeps, 'db'>, userId: string): Promise<Preferences> {
  const row = await repo(deps).preferencesOf(userId)
  if (!row) return { ...DEFAULTS }
  return Object.fromEntries(PREFERENCE_KEYS.map((k) => [k, row[PREFERENCES[k]]])) as Preferences
}

/** Sets the given preferences, leaving the others; 400 when the body sets none. */
export async function updatePreferences(deps: Pick<AppDeps, 'db' | 'clock'>, userId: string, body: UpdatePreferencesBody): Promise<Preferences> {
  const given = PREFERENCE_KEYS.filter((k) => typeof body[k] === 'boolean')
  if (given.length === 0) throw badRequest(`no valid fields to update (send any of ${PREFERENCE_KEYS.join(', ')})`)
  await repo(deps).setPreferences(userId, Object.fromEntries(given.map((k) => [PREFERENCES[k], body[k]])), deps.clock.now())
  return getPreferences(deps, userId)
}

const LABELS: Record<PreferenceKey, string> = {
  email_bug_created: 'new report',
  email_bug_status: 'status change',
  email_bug_assigned: 'assignment',
  email_bug_commented: 'new comment',
  email_weekly_digest: 'weekly digest',
}

/** The user and preference of a valid unsubscribe token whose user still exists, else null. */
async function unsubscribeTarget(deps: Pick<AppDeps, 'db'>, token: string | undefined) {
  const target = token ? await readUnsubscribeToken(deps, token) : null
  return target && (await createAuthRepository({ db: deps.db }).userById(target.userId)) ? target : null
}

/** What a valid unsubscribe token stops, as its page asks it ("new report"), else null. */
export async function unsubscribeSubject(deps: Pick<AppDeps, 'db'>, token: string | undefined): Promise<string | null> {
  const target = await unsubscribeTarget(deps, token)
  return target ? LABELS[target.preference] : null
}

/** Turns off the preference a signed unsubscribe link names; 400 for a link that is not valid. */
export async function unsubscribe(deps: Pick<AppDeps, 'db' | 'clock'>, token: string | undefined): Promise<{ message: string }> {
  const target = await unsubscribeTarget(deps, token)
  if (!target) throw badRequest('this unsubscribe link is not valid')
  await updatePreferences(deps, target.userId, { [target.preference]: false })
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
export async function recipientsFor(deps: Pick<AppDeps, 'db'>, o: { accountId: string; projectId: string | null; userIds: string[] | 'all'; preference: PreferenceKey; exceptId?: string | null }): Promise<Recipient[]> {
  if (o.userIds !== 'all' && o.userIds.length === 0) return []
  const wanted = o.userIds === 'all' ? null : new Set(o.userIds)
  const members = (await createAccountsRepository({ db: deps.db }).members(o.accountId)).filter(
    (m) => (wanted === null || wanted.has(m.userId)) && m.userId !== o.exceptId && hasPermission(m.role, m.permissionOverrides, 'bugs.view') && (o.projectId === null || canSeeProject(m.projectIds, o.projectId)),
  )
  const ids = members.map((m) => m.userId)
  const [contacts, prefs] = await Promise.all([createAuthRepository({ db: deps.db }).contactsOf(ids), repo(deps).preferenceOf(ids, o.preference)])
  return members.flatMap((m) => {
    const c = contacts.get(m.userId)
    return c && prefs.get(m.userId) !== false ? [{ id: m.userId, email: c.email, name: c.displayName ?? c.name, projectIds: m.projectIds }] : []
  })
}
