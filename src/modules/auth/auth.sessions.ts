import type { Seam } from '../../db/client'
import { DAY } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { createAuthRepository } from './auth.repository'
import type { users } from './auth.table'

export const SESSION_TTL_MS = 30 * DAY

export type User = typeof users.$inferSelect

/**
 * Creates a session and returns the bearer token (shown once; only its hash is stored). Called
 * inside a write (sign-up creates one in the account's own transaction) it joins that write; test
 * fixtures and benchmarks sign people in without a request.
 */
export async function createSession(db: Seam, userId: string, now: Date): Promise<string> {
  const token = randomToken(32)
  await createAuthRepository({ db }).insertSession({ id: newId(), userId, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) })
  return token
}

/** The user and session id behind a live bearer token, or null. */
export async function findSessionUser(db: Seam, token: string, now: Date): Promise<{ user: User; sessionId: string } | null> {
  return (await createAuthRepository({ db }).sessionUser(sha256Hex(token), now)) ?? null
}

/** Revokes one session (logout of the presented token). */
export async function revokeSession(db: Seam, sessionId: string): Promise<void> {
  await createAuthRepository({ db }).removeSession(sessionId)
}

/** Revokes every session of a user except `keepSessionId` (all of them when it is omitted). */
export async function revokeUserSessions(db: Seam, userId: string, keepSessionId?: string): Promise<void> {
  await createAuthRepository({ db }).removeUserSessions(userId, keepSessionId)
}
