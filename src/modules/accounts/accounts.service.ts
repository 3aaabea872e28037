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

/**
 * The account a user works in with their membership: the current one, or else one they own
 * (a user removed from their current account falls back to their own).
 */
export function workingAccountOf(db: DbOrTx, userId: string) {
  const row = (where: ReturnType<typeof sql>) =>
    db
      .select({ account: accounts, membership: accountMembers })
      .from(accountMembers)
      .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
      .innerJoin(users, eq(users.id, accountMembers.userId))
      .where(where)
      .get()
  return (
    row(sql`${accountMembers.userId} = ${userId} AND ${accountMembers.accountId} = ${users.currentAccountId}`) ??
    row(sql`${accountMembers.userId} = ${userId} AND ${accountMembers.role} = 'owner'`)
  )
}

/** Moves a user back to an account they own, creating one when they own none; returns its id. */
export function switchToOwnAccount(tx: DbOrTx, userId: string, plan: PlanKey, now: Date): string {
  const owned = tx.select({ id: accountMembers.accountId }).from(accountMembers).where(sql`${accountMembers.userId} = ${userId} AND ${accountMembers.role} = 'owner'`).get()
  let accountId = owned?.id
  if (!accountId) {
    const user = tx.select({ name: users.name }).from(users).where(eq(users.id, userId)).get()
    accountId = newId()
    tx.insert(accounts).values({ id: accountId, name: `${user?.name ?? 'My'}'s team`, ownerId: userId, plan, createdAt: now, updatedAt: now }).run()
    tx.insert(accountMembers).values({ accountId, userId, role: 'owner', createdAt: now }).run()
  }
  tx.update(users).set({ currentAccountId: accountId, updatedAt: now }).where(eq(users.id, userId)).run()
  return accountId
}
