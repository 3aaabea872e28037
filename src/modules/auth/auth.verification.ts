import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import { badRequest } from '../../http/errors'
import { HOUR, MINUTE } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { createAuthRepository } from './auth.repository'

export const VERIFICATION_TTL_MS = 48 * HOUR
/** A second resend inside this window sends nothing: the per-IP limit alone would let anyone flood an inbox. */
const RESEND_COOLDOWN_MS = MINUTE

export const RESEND_MESSAGE = 'If that address has an account waiting for verification, a new verification email is on its way'

type MailUser = { id: string; email: string; name: string }

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

type Deps = Pick<AppDeps, 'db' | 'clock'>

const auth = (deps: Pick<AppDeps, 'db'>) => createAuthRepository({ db: deps.db })

/** Stores a new single-use verification token and queues the mail with its link; call it inside the write that `tx` is. */
export async function sendVerificationMail(deps: Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'config'>, tx: Query, user: MailUser): Promise<void> {
  const now = deps.clock.now()
  const token = randomToken(32)
  await auth(deps).verifications.insert({ id: newId(), userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS) })
  const link = `${deps.config.publicUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}`
  await deps.mailer.send(tx, {
    to: user.email,
    subject: 'Verify your email address for Glitchbox',
    text: `Hi ${user.name},\n\nPlease confirm your email address by opening this link:\n\n${link}\n\nThe link works once and expires in 48 hours. If you did not sign up for Glitchbox, ignore this email.\n`,
    html: `<p>Hi ${escapeHtml(user.name)},</p><p>Please confirm your email address:</p><p><a href="${escapeHtml(link)}">Verify my email address</a></p><p>The link works once and expires in 48 hours. If you did not sign up for Glitchbox, ignore this email.</p>`,
  })
}

/** Marks the token's user verified and uses up every pending token of that user; 400 for an unknown, used or expired token. */
export async function verifyEmail(deps: Deps, token: string): Promise<{ message: string; email_verified: true }> {
  const now = deps.clock.now()
  const repo = auth(deps)
  await deps.db.write(async () => {
    const row = await repo.verifications.byHash(sha256Hex(token))
    if (!row || row.usedAt || row.expiresAt <= now) throw badRequest('this verification link is invalid, expired or already used')
    await markVerified(deps, row.userId, now)
  })
  return { message: 'Email address verified', email_verified: true }
}

/**
 * Sends a fresh verification mail to an unverified user, unless one went out less than a minute ago.
 * The caller answers the same generic message whatever happens here, so nothing reveals whether the address exists.
 */
export async function resendVerification(deps: Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'config'>, target: { userId: string } | { email: string }): Promise<void> {
  const now = deps.clock.now()
  const repo = auth(deps)
  await deps.db.write(async (tx) => {
    const user = 'userId' in target ? await repo.userById(target.userId) : await repo.userByEmail(target.email)
    if (!user || user.emailVerified) return
    if (await repo.verifications.sentSince(user.id, new Date(now.getTime() - RESEND_COOLDOWN_MS))) return
    await sendVerificationMail(deps, tx, user)
  })
}

/** Marks the user's address verified and uses up their pending verification links; call it inside a write. */
export async function markVerified(deps: Pick<AppDeps, 'db'>, userId: string, now: Date): Promise<void> {
  await auth(deps).updateUser(userId, { emailVerified: true, updatedAt: now })
  await auth(deps).verifications.useAll(userId, now)
}
