import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { hmacSha256Hex, randomToken, safeEqual } from '../../lib/ids'
import { isPreferenceKey, type PreferenceKey } from './notifications.schemas'
import { notificationKeys } from './notifications.table'

/** The server's unsubscribe signing key, made on first use and kept in the database (so backups carry it). */
function signingKey(db: DbOrTx): string {
  const found = db.select({ key: notificationKeys.key }).from(notificationKeys).where(eq(notificationKeys.id, 1)).get()
  if (found) return found.key
  db.insert(notificationKeys).values({ id: 1, key: randomToken(32) }).onConflictDoNothing().run()
  return db.select({ key: notificationKeys.key }).from(notificationKeys).where(eq(notificationKeys.id, 1)).get()!.key
}

/** A token naming a user and one preference, signed so nobody can unsubscribe someone else. */
export function unsubscribeToken(db: DbOrTx, userId: string, preference: PreferenceKey): string {
  const claim = `${userId}:${preference}`
  return `${Buffer.from(claim).toString('base64url')}.${hmacSha256Hex(signingKey(db), claim)}`
}

/** The user and preference of a valid token, else null. */
export function readUnsubscribeToken(db: DbOrTx, token: string): { userId: string; preference: PreferenceKey } | null {
  const [encoded, mac] = token.split('.')
  if (!encoded || !mac) return null
  const claim = Buffer.from(encoded, 'base64url').toString()
  if (!safeEqual(mac, hmacSha256Hex(signingKey(db), claim))) return null
  const i = claim.lastIndexOf(':')
  const userId = claim.slice(0, i)
  const preference = claim.slice(i + 1)
  return i > 0 && isPreferenceKey(preference) ? { userId, preference } : null
}
