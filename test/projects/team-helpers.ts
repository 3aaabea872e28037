import { eq } from 'drizzle-orm'
import { accountMembers, accounts } from '../../src/modules/auth/accounts.table'
import { users } from '../../src/modules/auth/auth.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A new user who works in `owner`'s account as `role`, with permission overrides set directly in the database. */
export async function addTeammate(t: TestApp, owner: TestUser, o: { role?: 'admin' | 'member'; overrides?: Record<string, boolean> } = {}): Promise<TestUser> {
  const mate = await createUser(t)
  await t.deps.db.write(async (q) => {
    await q.insert(accountMembers).values({ accountId: owner.account.id, userId: mate.user.id, role: o.role ?? 'member', permissionOverrides: o.overrides ?? {}, createdAt: t.clock.now() })
    await q.update(users).set({ currentAccountId: owner.account.id }).where(eq(users.id, mate.user.id))
  })
  const [account] = await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1))
  return { ...mate, user: { ...mate.user, currentAccountId: owner.account.id }, account: account! }
}

