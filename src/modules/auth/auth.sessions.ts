import { and, eq, gt, lte, ne } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { DAY } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { sessions, users } from './auth.table'

export const SESSION_TTL_MS = 30 * DAY

export type User = typeof users.$inferSelect

/** Creates a session and returns the bearer token (shown once; only its hash is stored). */
export function createSession(db: DbOrTx, userId: string, now: Date): string {
  const token = randomToken(32)
  db.insert(sessions)
    .values({ id: newId(), userId, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
    .run()
  return token
}

/** The user and session id behind a live bearer token, or null. */
export function findSessionUser(db: DbOrTx, token: string, now: Date): { user: User; sessionId: string } | null {
  const row = db
    .select({ user: users, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sha256Hex(token)), gt(sessions.expiresAt, now)))
    .get()
  return row ?? null
}

/** Revokes one session (logout of the presented token). */
export function revokeSession(db: DbOrTx, sessionId: string): void {
  db.delete(sessions).where(eq(sessions.id, sessionId)).run()
}

/** Revokes every session of a user except `keepSessionId` (all of them when it is omitted). */
export function revokeUserSessions(db: DbOrTx, userId: string, keepSessionId?: string): void {
  const mine = eq(sessions.userId, userId)
  db.delete(sessions)
    .where(keepSessionId ? and(mine, ne(sessions.id, keepSessionId)) : mine)
    .run()
}

/** Deletes sessions past their expiry; they no longer authenticate anyone. */
export function pruneExpiredSessions(db: DbOrTx, now: Date): void {
  db.delete(sessions).where(lte(sessions.expiresAt, now)).run()
}
