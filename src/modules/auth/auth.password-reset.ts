import type { AppDeps } from '../../app-deps'
import { badRequest } from '../../http/errors'
import { HOUR, MINUTE } from '../../lib/clock'
import { newId, randomToken, sha256Hex } from '../../lib/ids'
import { hashPassword } from './auth.password'
import { createAuthRepository } from './auth.repository'
import { revokeUserSessions } from './auth.sessions'
import { clearPasswordThrottle } from './auth.throttle'

export const RESET_TTL_MS = HOUR
/** A second request inside this window sends nothing: the per-IP limit alone would let anyone flood an inbox. */
const RESET_COOLDOWN_MS = MINUTE

export const FORGOT_MESSAGE = 'If an account uses that address, a link to reset its password is on its way'
export const INVALID_RESET = 'this password reset link is invalid, expired or already used'

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Mails a single-use link to `{public_url}/reset-password?token=…`, valid one hour, when the address
 * has an account. The caller answers the same message either way, so nothing reveals whether it exists.
 * A new link replaces the pending ones.
 */
export async function requestPasswordReset(deps: Pick<AppDeps, 'db' | 'mailer' | 'clock' | 'config'>, email: string): Promise<void> {
  const now = deps.clock.now()
  const repo = createAuthRepository({ db: deps.db })
  await deps.db.write(async (tx) => {
    const user = await repo.userByEmail(email)
    if (!user) return
    if (await repo.resets.sentSince(user.id, new Date(now.getTime() - RESET_COOLDOWN_MS))) return
    await repo.resets.useAll(user.id, now)
    const token = randomToken(32)
    await repo.resets.insert({ id: newId(), userId: user.id, tokenHash: sha256Hex(token), createdAt: now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) })
    const link = `${deps.config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`
    await deps.mailer.send(tx, {
      to: user.email,
      subject: 'Reset your Glitchbox password',
      text: `Hi ${user.name},\n\nSomeone (hopefully you) asked to reset the password of your Glitchbox account. Choose a new password here:\n\n${link}\n\nThe link works once and expires in one hour. If you did not ask for it, ignore this email: your password stays as it is.\n`,
      html: `<p>Hi ${escapeHtml(user.name)},</p><p>Someone (hopefully you) asked to reset the password of your Glitchbox account.</p><p><a href="${escapeHtml(link)}">Choose a new password</a></p><p>The link works once and expires in one hour. If you did not ask for it, ignore this email: your password stays as it is.</p>`,
    })
  })
}

/**
 * Sets a new password with a reset token, uses the token up and signs out every session of the
 * user; 400 for an unknown, used or expired token. The link reached the user's inbox, so the
 * address counts as verified too, and a sign-in lockout of the account ends.
 */
export async function resetPassword(deps: Pick<AppDeps, 'db' | 'clock'>, token: string, newPassword: string): Promise<{ message: string }> {
  const tokenHash = sha256Hex(token)
  const repo = createAuthRepository({ db: deps.db })
  const live = async () => {
    const row = await repo.resets.byHash(tokenHash)
    return row && !row.usedAt && row.expiresAt > deps.clock.now() ? row : null
  }
  if (!(await live())) throw badRequest(INVALID_RESET)
  const passwordHash = await hashPassword(newPassword)
  await deps.db.write(async () => {
    // Checked again: the token may have been used while the password was hashed.
    const row = await live()
    if (!row) throw badRequest(INVALID_RESET)
    const now = deps.clock.now()
    const user = (await repo.updateUser(row.userId, { passwordHash, emailVerified: true, updatedAt: now }))!
    await clearPasswordThrottle(deps.db, user.email)
    await repo.resets.useAll(row.userId, now)
    await revokeUserSessions(deps.db, row.userId)
  })
  return { message: 'Password changed; sign in with your new password' }
}
