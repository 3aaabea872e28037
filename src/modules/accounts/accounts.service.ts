import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { newId } from '../../lib/ids'
import type { PlanKey } from '../billing/plans'
import { users } from '../auth/auth.table'
import { accountMembers, accounts } from './accounts.table'

export interface NewUser {
  email: string
  name: string
  passwordHash: string | null
  emailVerified?: boolean
  googleSub?: string | null
  appleSub?: string | null
}

/** Creates a user with their own team account (the user as owner), which they then work in. */
export function createUserWithAccount(tx: DbOrTx, input: NewUser, plan: PlanKey, now: Date) {
  const userId = newId()
  const accountId = newId()
  tx.insert(users)
    .values({
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
    .run()
  tx.insert(accounts).values({ id: accountId, name: `${input.name}'s team`, ownerId: userId, plan, createdAt: now, updatedAt: now }).run()
  tx.insert(accountMembers).values({ accountId, userId, role: 'owner', createdAt: now }).run()
  return tx.select().from(users).where(eq(users.id, userId)).get()!
}

/** The account a user currently works in. */
export function currentAccountOf(db: DbOrTx, userId: string) {
  return db
    .select({ account: accounts, role: accountMembers.role })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.currentAccountId))
    .innerJoin(accountMembers, sql`${accountMembers.accountId} = ${accounts.id} AND ${accountMembers.userId} = ${users.id}`)
    .where(eq(users.id, userId))
    .get()
}
