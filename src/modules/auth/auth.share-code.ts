import { and, eq, gt } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { HOUR } from '../../lib/clock'
import { sha256Hex } from '../../lib/ids'
import { supportShareCodes, users } from './auth.table'

/** No 0/O or 1/I: support staff read these codes back over chat or the phone. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 8

function newCode(): string {
  // 32 symbols: a byte modulo 32 is unbiased.
  return Array.from(crypto.getRandomValues(new Uint8Array(CODE_LENGTH)), (b) => CODE_ALPHABET[b % 32]).join('')
}

const normalise = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '')

/** Issues a code valid for `hours`, replacing the user's previous one; only its hash is kept. */
export function createShareCode(db: DbOrTx, userId: string, hours: number, now: Date): { code: string; expires_at: string } {
  const code = newCode()
  const expiresAt = new Date(now.getTime() + hours * HOUR)
  const row = { codeHash: sha256Hex(code), createdAt: now, expiresAt }
  db.insert(supportShareCodes)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: supportShareCodes.userId, set: row })
    .run()
  return { code, expires_at: expiresAt.toISOString() }
}

/** Revokes the user's code, if any. */
export function revokeShareCode(db: DbOrTx, userId: string): { message: string } {
  db.delete(supportShareCodes).where(eq(supportShareCodes.userId, userId)).run()
  return { message: 'Support share code revoked' }
}

/** The user a live code was issued to, for support tooling; null when unknown, expired or revoked. */
export function findShareCodeUser(db: DbOrTx, code: string, now: Date) {
  return (
    db
      .select({ userId: users.id, email: users.email, expiresAt: supportShareCodes.expiresAt })
      .from(supportShareCodes)
      .innerJoin(users, eq(users.id, supportShareCodes.userId))
      .where(and(eq(supportShareCodes.codeHash, sha256Hex(normalise(code))), gt(supportShareCodes.expiresAt, now)))
      .get() ?? null
  )
}
