import type * as z from 'zod'
import type { Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import { workingAccountOf } from './accounts.service'
import { PROFILE_ROLES, type profileBody, THEMES } from './auth.schemas'
import { createAuthRepository } from './auth.repository'
import type { User } from './auth.sessions'

/** The signed-in user's profile, with the account they work in (the same one account routes act on). */
export async function profileView(db: Seam, user: User) {
  const current = await workingAccountOf(db, user)
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    display_name: user.displayName,
    avatar_url: user.avatarUrl,
    theme: user.theme,
    role: user.role,
    email_verified: user.emailVerified,
    onboarding_done: user.onboardingDone,
    /** False for accounts that only sign in with Google or Apple (they cannot change a password). */
    has_password: user.passwordHash !== null,
    created_at: user.createdAt.toISOString(),
    account: current ? { id: current.account.id, name: current.account.name, role: current.membership.role, plan: current.account.plan } : null,
  }
}

const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : undefined

/** Applies the recognised profile fields; unknown theme or role values are dropped, and nothing left is a 400. */
export async function updateProfile(db: Seam, user: User, input: z.output<typeof profileBody>, now: Date) {
  const changes: Partial<Pick<User, 'displayName' | 'avatarUrl' | 'theme' | 'role'>> = {}
  if (input.display_name !== undefined) changes.displayName = input.display_name
  if (input.avatar_url !== undefined) changes.avatarUrl = input.avatar_url
  const theme = oneOf(THEMES, input.theme)
  if (theme) changes.theme = theme
  const role = oneOf(PROFILE_ROLES, input.role)
  if (role) changes.role = role
  if (Object.keys(changes).length === 0) throw badRequest('no valid fields to update')
  await createAuthRepository({ db }).updateUser(user.id, { ...changes, updatedAt: now })
  return { message: 'Profile updated' }
}
