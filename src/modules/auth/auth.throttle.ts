import type { AppDeps } from '../../app-deps'
import type { Query, Seam } from '../../db/client'
import { AppError } from '../../http/errors'
import { MINUTE } from '../../lib/clock'
import { sha256Hex } from '../../lib/ids'
import { verifyPassword } from './auth.password'
import { createAuthRepository } from './auth.repository'
import type { User } from './auth.sessions'
import { keyedTurns } from '../../lib/key-turns'

/** Failed password checks for one account inside `FAILURE_WINDOW_MS` that pause its password sign-in. */
export const MAX_FAILURES = 10
export const FAILURE_WINDOW_MS = 15 * MINUTE
export const LOCKOUT_MS = 15 * MINUTE

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer' | 'logger'>

/** The throttle's key for an email: the SHA-256 of the normalised address, whether or not an account uses it. */
const accountKey = (email: string) => sha256Hex(email.trim().toLowerCase())

/**
 * Checks a password for the account at `email` (`user` undefined when no account uses it): true
 * when it matches. A wrong password counts against the address; the 10th in 15 minutes pauses
 * password checks for it for 15 minutes (429, the right password included) and mails the owner once
 * when SMTP is configured. Unknown addresses go the same way, so neither the answer nor its timing
 * tells whether an account exists.
 */
export type PasswordCheck = (attempt: { email: string; password: string; user: User | undefined }) => Promise<boolean>

/**
 * The password check of one app. Checks for one address run one after another: the argon2 verify
 * is asynchronous, and parallel guesses would otherwise all pass the lockout check before the first
 * failure is counted.
 */
export function createPasswordCheck(deps: Deps): PasswordCheck {
  const inTurn = keyedTurns()
  return (attempt) => {
    const key = accountKey(attempt.email)
    return inTurn(key, () => checkOnce(deps, key, attempt))
  }
}

async function checkOnce(deps: Deps, key: string, attempt: { password: string; user: User | undefined }): Promise<boolean> {
  const lockedUntil = await createAuthRepository({ db: deps.db }).lockedUntil(key)
  const now = deps.clock.now()
  if (lockedUntil && lockedUntil > now) throw lockedOut(lockedUntil, now)
  const ok = await verifyPassword(attempt.password, attempt.user?.passwordHash)
  if (ok) await createAuthRepository({ db: deps.db }).clearFailures(key)
  else await countFailure(deps, key, attempt.user)
  return ok
}

function lockedOut(until: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000))
  const minutes = Math.ceil(seconds / 60)
  return new AppError(429, `too many failed sign-ins for this account; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, {
    'retry-after': String(seconds),
  })
}

/** Records one failure; the one that reaches the limit starts a lockout episode (its failures are spent). */
async function countFailure(deps: Deps, key: string, user: User | undefined): Promise<void> {
  const repo = createAuthRepository({ db: deps.db })
  const now = deps.clock.now()
  const lockedUntil = await deps.db.write(async (tx) => {
    const failures = await repo.addFailure(key, now, new Date(now.getTime() - FAILURE_WINDOW_MS))
    if (failures < MAX_FAILURES) return null
    const until = new Date(now.getTime() + LOCKOUT_MS)
    await repo.lock(key, until)
    // Without SMTP the notice would only sit in the outbox and the log: nobody would read it in time.
    if (user && deps.config.smtpUrl) await mailLockout(deps, tx, user, until)
    return until
  })
  // Logged once the lockout is committed: the write's callback may run twice.
  if (lockedUntil) deps.logger.warn('password sign-in paused for an account after repeated wrong passwords', { user_id: user?.id ?? null, locked_until: lockedUntil.toISOString() })
}

async function mailLockout(deps: Deps, tx: Query, user: User, lockedUntil: Date): Promise<void> {
  const until = `${lockedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  await deps.mailer.send(tx, {
    to: user.email,
    subject: 'Sign-in to your Glitchbox account is paused after failed attempts',
    text:
      `Hi ${user.name},\n\n${MAX_FAILURES} sign-ins with a wrong password were tried on your Glitchbox account within ${FAILURE_WINDOW_MS / MINUTE} minutes, ` +
      `so signing in with its password is paused until ${until}, from every address.\n\n` +
      `If that was you, wait and try again, or choose a new password (which also ends the pause):\n\n${deps.config.publicUrl}/forgot-password\n\n` +
      'If it was not you, someone is guessing your password. None of those guesses was accepted; a long password used nowhere else keeps it that way.\n',
  })
}

/** Ends a lockout and forgets the failures of `email`: its owner proved they read its mail (a password reset). */
export async function clearPasswordThrottle(db: Seam, email: string): Promise<void> {
  await createAuthRepository({ db }).clearThrottle(accountKey(email))
}

/** Drops failures that no longer count and lockouts that ended (the nightly sweep). */
export async function pruneLoginThrottle(db: Seam, now: Date): Promise<void> {
  await createAuthRepository({ db }).pruneThrottle(new Date(now.getTime() - FAILURE_WINDOW_MS), now)
}
