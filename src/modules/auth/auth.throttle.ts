import { and, count, eq, lte } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { AppError } from '../../http/errors'
import { MINUTE } from '../../lib/clock'
import { sha256Hex } from '../../lib/ids'
import { verifyPassword } from './auth.password'
import type { User } from './auth.sessions'
import { loginFailures, loginLockouts } from './auth.table'

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
  const queues = new Map<string, Promise<unknown>>()
  return (attempt) => {
    const key = accountKey(attempt.email)
    const run = (queues.get(key) ?? Promise.resolve()).then(() => checkOnce(deps, key, attempt))
    const settled = run.catch(() => {})
    queues.set(key, settled)
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key)
    })
    return run
  }
}

async function checkOnce(deps: Deps, key: string, attempt: { password: string; user: User | undefined }): Promise<boolean> {
  const lock = deps.db.select().from(loginLockouts).where(eq(loginLockouts.accountKey, key)).get()
  const now = deps.clock.now()
  if (lock && lock.lockedUntil > now) throw lockedOut(lock.lockedUntil, now)
  const ok = await verifyPassword(attempt.password, attempt.user?.passwordHash)
  if (ok) deps.db.delete(loginFailures).where(eq(loginFailures.accountKey, key)).run()
  else countFailure(deps, key, attempt.user)
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
function countFailure(deps: Deps, key: string, user: User | undefined): void {
  deps.db.transaction((tx) => {
    const now = deps.clock.now()
    tx.delete(loginFailures)
      .where(and(eq(loginFailures.accountKey, key), lte(loginFailures.failedAt, new Date(now.getTime() - FAILURE_WINDOW_MS))))
      .run()
    tx.insert(loginFailures).values({ accountKey: key, failedAt: now }).run()
    const failures = tx.select({ n: count() }).from(loginFailures).where(eq(loginFailures.accountKey, key)).get()!.n
    if (failures < MAX_FAILURES) return
    const lockedUntil = new Date(now.getTime() + LOCKOUT_MS)
    tx.delete(loginFailures).where(eq(loginFailures.accountKey, key)).run()
    tx.insert(loginLockouts).values({ accountKey: key, lockedUntil }).onConflictDoUpdate({ target: loginLockouts.accountKey, set: { lockedUntil } }).run()
    deps.logger.warn('password sign-in paused for an account after repeated wrong passwords', { user_id: user?.id ?? null, locked_until: lockedUntil.toISOString() })
    // Without SMTP the notice would only sit in the outbox and the log: nobody would read it in time.
    if (user && deps.config.smtpUrl) mailLockout(deps, tx, user, lockedUntil)
  })
}

function mailLockout(deps: Deps, tx: DbOrTx, user: User, lockedUntil: Date): void {
  const until = `${lockedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC`
  deps.mailer.send(tx, {
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
export function clearPasswordThrottle(tx: DbOrTx, email: string): void {
  const key = accountKey(email)
  tx.delete(loginFailures).where(eq(loginFailures.accountKey, key)).run()
  tx.delete(loginLockouts).where(eq(loginLockouts.accountKey, key)).run()
}

/** Drops failures that no longer count and lockouts that ended (the nightly sweep). */
export function pruneLoginThrottle(tx: DbOrTx, now: Date): void {
  tx.delete(loginFailures)
    .where(lte(loginFailures.failedAt, new Date(now.getTime() - FAILURE_WINDOW_MS)))
    .run()
  tx.delete(loginLockouts).where(lte(loginLockouts.lockedUntil, now)).run()
}
