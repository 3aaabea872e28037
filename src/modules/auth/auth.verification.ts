import { and, desc, eq, gt, isNull } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest } from '../../http/errors'
import { HOUR, MINUTE } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { emailVerifications, users } from './auth.table'

export const VERIFICATION_TTL_MS = 48 * HOUR
/** A second resend inside this window sends nothing: the per-IP limit alone would let anyone flood an inbox. */
const RESEND_COOLDOWN_MS = MINUTE

export const RESEND_MESSAGE = 'If that address has an account waiting for verification, a new verification email is on its way'

type MailUser = { id: string; email: string; name: string }

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Stores a new single-use verification token and queues the mail with its link, in the caller's transaction. */
export function sendVerificationMail(deps: Pick<AppDeps, 'mailer' | 'clock' | 'config'>, tx: DbOrTx, user: MailUser): void {
  const now = deps.clock.now()
  const token = randomToken(32)
  tx.insert(emailVerifications)
    .values({ id: newId(), userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS) })
    .run()
  const link = `${deps.config.publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`
  deps.mailer.send(tx, {
    to: user.email,
    subject: 'Verify your email address for Glitchbox',
    text: `Hi ${user.name},\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nThe link works once and expires in 48 hours. If you did not sign up for Glitchbox, ignore this email.\n`,
    html: `<p>Hi ${escapeHtml(user.name)},</p><p>Please confirm your email address:</p><p><a href="${escapeHtml(link)}">Verify my email address</a></p><p>The link works once and expires in 48 hours. If you did not sign up for Glitchbox, ignore this email.</p>`,
  })
}

/** Marks the token's user verified and uses up every pending token of that user; 400 for an unknown, used or expired token. */
export function verifyEmail(deps: Pick<AppDeps, 'db' | 'clock'>, token: string): { message: string; email_verified: true } {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const row = tx.select().from(emailVerifications).where(eq(emailVerifications.tokenHash, sha256Hex(token))).get()
    if (!row || row.usedAt || row.expiresAt <= now) throw badRequest('this verification link is invalid, expired or already used')
    tx.update(users).set({ emailVerified: true, updatedAt: now }).where(eq(users.id, row.userId)).run()
    tx.update(emailVerifications)
      .set({ usedAt: now })
      .where(and(eq(emailVerifications.userId, row.userId), isNull(emailVerifications.usedAt)))
      .run()
  })
  return { message: 'Email address verified', email_verified: true }
}

/**
 * Sends a fresh verification mail to an unverified user, unless one went out less than a minute ago.
 * The caller answers the same generic message whatever happens here, so nothing reveals whether the address exists.
 */
export function resendVerification(deps: Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'config'>, target: { userId: string } | { email: string }): void {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const where = 'userId' in target ? eq(users.id, target.userId) : eq(users.email, target.email.trim().toLowerCase())
    const user = tx.select().from(users).where(where).get()
    if (!user || user.emailVerified) return
    const recent = tx
      .select({ id: emailVerifications.id })
      .from(emailVerifications)
      .where(and(eq(emailVerifications.userId, user.id), gt(emailVerifications.createdAt, new Date(now.getTime() - RESEND_COOLDOWN_MS))))
      .orderBy(desc(emailVerifications.createdAt))
      .get()
    if (recent) return
    sendVerificationMail(deps, tx, user)
  })
}
