import { eq } from 'drizzle-orm'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { users } from '../../src/modules/auth/auth.table'
import { createUser, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A new user who joined `owner`'s account with `role` and works in it (inserted directly). */
export async function addMember(t: TestApp, owner: TestUser, role: 'admin' | 'member', o: { overrides?: Record<string, boolean> } = {}): Promise<TestUser> {
  const u = await createUser(t)
  await t.deps.db.write(async (q) => {
    await q.insert(accountMembers).values({ accountId: owner.account.id, userId: u.user.id, role, permissionOverrides: o.overrides ?? {}, createdAt: t.clock.now() })
    await q.update(users).set({ currentAccountId: owner.account.id }).where(eq(users.id, u.user.id))
  })
  return { ...u, account: owner.account }
}
