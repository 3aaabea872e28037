import type { AppDeps } from '../../app-deps'
import { randomBase62 } from '../../lib/ids'
import { createUserWithAccount } from './accounts.service'
import { hashPassword, MIN_PASSWORD_LENGTH } from './auth.password'
import { createAuthRepository } from './auth.repository'
import { signupBody } from './auth.schemas'
import { findUserByEmail } from './auth.service'
import { revokeUserSessions } from './auth.sessions'
import { findShareCodeUser } from './auth.share-code'
import { markVerified } from './auth.verification'

/** 20 base62 characters: about 119 bits, for passwords the operator hands over once. */
const generatePassword = () => randomBase62(20)

/** `glitchbox admin create-user`: a verified user with their own account; generates a password when none is given. */
export async function adminCreateUser(deps: AppDeps, email: string, password?: string): Promise<{ userId: string; password: string }> {
  const parsedEmail = signupBody.shape.email.safeParse(email)
  if (!parsedEmail.success) throw new Error(`not a valid email address: ${email}`)
  if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw new Error(`the password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  const address = parsedEmail.data.toLowerCase()
  if (await findUserByEmail(deps.db, address)) throw new Error(`a user with the email ${address} already exists`)
  const plain = password ?? generatePassword()
  const passwordHash = await hashPassword(plain)
  const user = await deps.db.write(async (tx) => {
    if (await findUserByEmail(deps.db, address)) throw new Error(`a user with the email ${address} already exists`)
    return createUserWithAccount(tx, { email: address, name: address.split('@')[0]!, passwordHash, emailVerified: true }, deps.config.defaultPlan, deps.clock.now())
  })
  return { userId: user.id, password: plain }
}

/** `glitchbox admin reset-password`: sets a new random password and signs the user out everywhere. */
export async function adminResetPassword(deps: AppDeps, email: string): Promise<{ password: string }> {
  const user = await findUserByEmail(deps.db, email)
  if (!user) throw new Error(`no user with the email ${email.trim().toLowerCase()}`)
  const password = generatePassword()
  const passwordHash = await hashPassword(password)
  await deps.db.write(async () => {
    await createAuthRepository({ db: deps.db }).updateUser(user.id, { passwordHash, updatedAt: deps.clock.now() })
    await revokeUserSessions(deps.db, user.id)
  })
  return { password }
}

/** For support staff: whose live share code this is (null when unknown, expired or revoked). */
export function adminFindShareCode(deps: AppDeps, code: string): Promise<{ userId: string; email: string; expiresAt: Date } | null> {
  return findShareCodeUser(deps.db, code, deps.clock.now())
}

/** `glitchbox admin verify`: marks the address verified (a server without SMTP mails no link) and uses up its pending links. */
export async function adminVerifyEmail(deps: AppDeps, email: string): Promise<{ alreadyVerified: boolean }> {
  const user = await findUserByEmail(deps.db, email)
  if (!user) throw new Error(`no user with the email ${email.trim().toLowerCase()}`)
  const now = deps.clock.now()
  await deps.db.write(() => markVerified(deps, user.id, now))
  return { alreadyVerified: user.emailVerified }
}
