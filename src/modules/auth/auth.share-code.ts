import type { Seam } from '../../db/client'
import { HOUR } from '../../lib/clock'
import { sha256Hex } from '../../lib/ids'
import { createAuthRepository } from './auth.repository'

/** No 0/O or 1/I: support staff read these codes back over chat or the phone. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 8

function newCode(): string {
  // 32 symbols: a byte modulo 32 is unbiased.
  return Array.from(crypto.getRandomValues(new Uint8Array(CODE_LENGTH)), (b) => CODE_ALPHABET[b % 32]).join('')
}

const normalise = (code: string) => code.trim().toUpperCase().replace(/[\s-]/g, '')

/** Issues a code valid for `hours`, replacing the user's previous one; only its hash is kept. */
export async function createShareCode(db: Seam, userId: string, hours: number, now: Date): Promise<{ code: string; expires_at: string }> {
  const code = newCode()
  const expiresAt = new Date(now.getTime() + hours * HOUR)
  await createAuthRepository({ db }).saveShareCode(userId, { codeHash: sha256Hex(code), createdAt: now, expiresAt })
  return { code, expires_at: expiresAt.toISOString() }
}

/** Revokes the user's code, if any. */
export async function revokeShareCode(db: Seam, userId: string): Promise<{ message: string }> {
  await createAuthRepository({ db }).removeShareCode(userId)
  return { message: 'Support share code revoked' }
}

/** The user a live code was issued to, for support tooling; null when unknown, expired or revoked. */
export async function findShareCodeUser(db: Seam, code: string, now: Date) {
  return (await createAuthRepository({ db }).shareCodeUser(sha256Hex(normalise(code)), now)) ?? null
}
