import type * as z from 'zod'
import type { AppDeps } from '../../app-deps'
import type { Seam, Tx } from '../../db/client'
import { badRequest, conflict, describeIssues, unauthorized } from '../../http/errors'
import { createUserWithAccount } from './accounts.service'
import type { IdentityClaims, IdentityVerifier } from './auth.identity'
import { hashPassword } from './auth.password'
import { createAuthRepository } from './auth.repository'
import { type loginBody, passwordLoginBody, type signupBody } from './auth.schemas'
import { createSession, revokeUserSessions, type User } from './auth.sessions'
import type { PasswordCheck } from './auth.throttle'
import { sendVerificationMail } from './auth.verification'

export const INVALID_CREDENTIALS = 'invalid email or password'
export const EMAIL_TAKEN = 'email already registered'

/** The Session resource of spec section 2. */
export interface SessionView {
  token: string
  user_id: string
  email: string
  name: string
  onboarding_done: boolean
  email_verified: boolean
}

const sessionView = (user: User, token: string): SessionView => ({
  token,
  user_id: user.id,
  email: user.email,
  name: user.name,
  onboarding_done: user.onboardingDone,
  email_verified: user.emailVerified,
})

/** The user with this email (case-insensitive), or undefined. */
export function findUserByEmail(db: Seam, email: string): Promise<User | undefined> {
  return createAuthRepository({ db }).userByEmail(email)
}

/**
 * Creates the user, their own team account and a session, and queues the verification mail, in one
 * transaction. On a server without SMTP the first account is verified as it is made: its operator
 * could only find the link in the server log.
 */
export async function signup(deps: AppDeps, input: z.output<typeof signupBody>): Promise<SessionView> {
  const email = input.email.toLowerCase()
  if (await findUserByEmail(deps.db, email)) throw conflict(EMAIL_TAKEN)
  const passwordHash = await hashPassword(input.password)
  const now = deps.clock.now()
  return deps.db.write(async (tx) => {
    // Checked again inside the transaction: another signup may have won while we were hashing.
    if (await findUserByEmail(deps.db, email)) throw conflict(EMAIL_TAKEN)
    const name = input.name || input.email.split('@')[0]!.slice(0, 100)
    const emailVerified = !deps.mailer.configured && !(await createAuthRepository({ db: deps.db }).anyUser())
    const user = await createUserWithAccount(tx, { email, name, passwordHash, emailVerified }, deps.config.defaultPlan, now)
    if (!emailVerified) await sendVerificationMail(deps, tx, user)
    return sessionView(user, await createSession(deps.db, user.id, now))
  })
}

/** How sign-in proofs are checked: identity tokens against the providers, passwords under the per-account throttle. */
export interface Checks {
  verifyIdentity: IdentityVerifier
  checkPassword: PasswordCheck
}

/** Email and password login, or social sign-in when `identity_token` is given. */
export async function login(deps: AppDeps, { verifyIdentity, checkPassword }: Checks, body: z.output<typeof loginBody>): Promise<SessionView> {
  if (body.identity_token !== undefined) {
    const claims = await verifyIdentity(body.identity_token)
    const now = deps.clock.now()
    return deps.db.write(async (tx) => {
      const user = await userForIdentity(deps, tx, claims, now)
      return sessionView(user, await createSession(deps.db, user.id, now))
    })
  }
  const parsed = passwordLoginBody.safeParse(body)
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues))
  const user = await findUserByEmail(deps.db, parsed.data.email)
  // Unknown users and social-only accounts still pay for one verification (against a dummy hash) and are throttled alike.
  const ok = await checkPassword({ email: parsed.data.email, password: parsed.data.password, user })
  if (!user || !ok) throw unauthorized(INVALID_CREDENTIALS)
  const now = deps.clock.now()
  return sessionView(user, await createSession(deps.db, user.id, now))
}

/**
 * The user a verified identity token signs in: the one linked to the provider subject, else the
 * user with the same email (linked only when the provider vouches for the address), else a new user
 * with their own account. Linking a user whose address was never verified drops their password and
 * sessions: whoever set that password never proved they own the address (account pre-hijacking).
 */
async function userForIdentity(deps: AppDeps, tx: Tx, claims: IdentityClaims, now: Date): Promise<User> {
  const repo = createAuthRepository({ db: deps.db })
  const linked = await repo.userBySubject(claims.provider, claims.sub)
  if (linked) return linked
  if (!claims.email) throw unauthorized('the identity token carries no email address')
  const sub = claims.provider === 'google' ? { googleSub: claims.sub } : { appleSub: claims.sub }
  const existing = await repo.userByEmail(claims.email)
  if (!existing) {
    const name = claims.name ?? claims.email.split('@')[0]!.slice(0, 100)
    return createUserWithAccount(
      deps.db,
      { email: claims.email, name, passwordHash: null, emailVerified: claims.emailVerified, ...sub },
      deps.config.defaultPlan,
      now,
    )
  }
  const otherSub = claims.provider === 'google' ? existing.googleSub : existing.appleSub
  if (!claims.emailVerified || otherSub) throw unauthorized(`${EMAIL_TAKEN}; sign in with your password`)
  const reset = existing.emailVerified ? {} : { passwordHash: null }
  if (!existing.emailVerified) {
    await revokeUserSessions(deps.db, existing.id)
    await repo.dropVerifications(existing.id)
  }
  return (await repo.updateUser(existing.id, { ...sub, ...reset, emailVerified: true, updatedAt: now }))!
}

/**
 * Changes the password after checking the current one, and signs out every other session. The check
 * counts toward the login throttle: a stolen session must not become a way to guess the password.
 */
export async function changePassword(
  deps: AppDeps,
  checkPassword: PasswordCheck,
  user: User,
  sessionId: string,
  input: { current_password: string; new_password: string },
) {
  if (!user.passwordHash) throw badRequest('this account signs in with Google or Apple and has no password to change')
  if (!(await checkPassword({ email: user.email, password: input.current_password, user }))) throw unauthorized('current password is incorrect')
  const passwordHash = await hashPassword(input.new_password)
  const now = deps.clock.now()
  await deps.db.write(async () => {
    await createAuthRepository({ db: deps.db }).updateUser(user.id, { passwordHash, updatedAt: now })
    await revokeUserSessions(deps.db, user.id, sessionId)
  })
  return { message: 'Password changed; your other sessions were signed out' }
}
