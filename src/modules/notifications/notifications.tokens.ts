import type { AppDeps } from '../../app-deps'
import { hmacSha256Hex, randomToken, safeEqual } from '../../lib/ids'
import { createNotificationsRepository } from './notifications.repository'
import { isPreferenceKey, type PreferenceKey } from './notifications.schemas'

/** The server's unsubscribe signing key, made on first use and kept in the database (so backups carry it). */
export const signingKey = (deps: Pick<AppDeps, 'db'>): Promise<string> => createNotificationsRepository({ db: deps.db }).signingKey(() => randomToken(32))

/** A token naming a user and one preference, signed with `key` so nobody can unsubscribe someone else. */
export function signedUnsubscribeToken(key: string, userId: string, preference: PreferenceKey): string {
  const claim = `${userId}:${preference}`
  return `${Buffer.from(claim).toString('base64url')}.${hmacSha256Hex(key, claim)}`
}

/** A token naming a user and one preference, signed with the server's key. */
export async function unsubscribeToken(deps: Pick<AppDeps, 'db'>, userId: string, preference: PreferenceKey): Promise<string> {
  return signedUnsubscribeToken(await signingKey(deps), userId, preference)
}

/** The user and preference of a valid token, else null. */
export async function readUnsubscribeToken(deps: Pick<AppDeps, 'db'>, token: string): Promise<{ userId: string; preference: PreferenceKey } | null> {
  const [encoded, mac] = token.split('.')
  if (!encoded || !mac) return null
  const claim = Buffer.from(encoded, 'base64url').toString()
  if (!safeEqual(mac, hmacSha256Hex(await signingKey(deps), claim))) return null
  const i = claim.lastIndexOf(':')
  const userId = claim.slice(0, i)
  const preference = claim.slice(i + 1)
  return i > 0 && isPreferenceKey(preference) ? { userId, preference } : null
}
