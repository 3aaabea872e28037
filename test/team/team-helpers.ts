import { eq } from 'drizzle-orm'
import { accountMembers } from '../../src/modules/accounts/accounts.table'
import { users } from '../../src/modules/auth/auth.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A new user who joined `owner`'s account with `role` and works in it (inserted directly). */
export async function addMember(t: TestApp, owner: TestUser, role: 'admin' | 'member', o: { overrides?: Record<string, boolean> } = {}): Promise<TestUser> {
  const u = await createUser(t)
  t.deps.db.insert(accountMembers).values({ accountId: owner.account.id, userId: u.user.id, role, permissionOverrides: o.overrides ?? {}, createdAt: t.clock.now() }).run()
  t.deps.db.update(users).set({ currentAccountId: owner.account.id }).where(eq(users.id, u.user.id)).run()
  return { ...u, account: owner.account }
}
