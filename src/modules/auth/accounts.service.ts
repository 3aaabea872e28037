import type { Seam } from '../../db/client'
import { newId } from '../../lib/ids'
import { createAuthRepository } from './auth.repository'
import type { User } from './auth.sessions'
import { createAccountsRepository, type Account } from './accounts.repository'

export interface NewUser {
  email: string
  name: string
  passwordHash: string | null
  emailVerified?: boolean
  googleSub?: string | null
  appleSub?: string | null
}

/** Creates a user with their own team account (the user as owner), which they then work in; all in one write. */
export async function createUserWithAccount(db: Seam, input: NewUser, plan: Account['plan'], now: Date): Promise<User> {
  const userId = newId()
  const accountId = newId()
  return db.write(async () => {
    const user = await createAuthRepository({ db }).insertUser({
      id: userId,
      email: input.email.toLowerCase(),
      name: input.name,
      passwordHash: input.passwordHash,
      emailVerified: input.emailVerified ?? false,
      googleSub: input.googleSub ?? null,
      appleSub: input.appleSub ?? null,
      currentAccountId: accountId,
      createdAt: now,
      updatedAt: now,
    })
    await createAccountsRepository({ db }).createOwned({ id: accountId, name: `${input.name}'s team`, ownerId: userId, plan, now })
    return user
  })
}

/**
 * The account a user works in with their membership: the current one, or else one they own
 * (a user removed from their current account falls back to their own).
 */
export function workingAccountOf(db: Seam, user: Pick<User, 'id' | 'currentAccountId'>) {
  return createAccountsRepository({ db }).workingAccount(user.id, user.currentAccountId)
}

/** Moves a user back to an account they own, creating one when they own none; returns its id. */
export async function switchToOwnAccount(db: Seam, userId: string, plan: Account['plan'], now: Date): Promise<string> {
  return db.write(async () => {
    const accountsRepo = createAccountsRepository({ db })
    const authRepo = createAuthRepository({ db })
    let accountId = await accountsRepo.ownedAccountId(userId)
    if (!accountId) {
      const user = await authRepo.userById(userId)
      accountId = newId()
      await accountsRepo.createOwned({ id: accountId, name: `${user?.name ?? 'My'}'s team`, ownerId: userId, plan, now })
    }
    await authRepo.setCurrentAccount(userId, accountId, now)
    return accountId
  })
}

/**
 * Bytes of the account's stored files: its projects' report and occurrence screenshots, attachments,
 * replays and widget backgrounds (deleted reports' too, while their files exist). Uploads add to the
 * account's counter and retention takes off what it removes; a null counter (never read, or reset
 * when a project went) is counted here once, in the same write that stores it.
 */
export const accountStorageBytes = (db: Seam, accountId: string): Promise<number> => createAccountsRepository({ db }).storageBytes(accountId)

/** Forgets the account's stored-bytes counter (after files went by a path that does not count them); the next read counts again. */
export async function recountStorage(db: Seam, accountId: string): Promise<void> {
  await createAccountsRepository({ db }).forgetStorageBytes(accountId)
}
