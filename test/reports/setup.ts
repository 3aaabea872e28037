import { eq } from 'drizzle-orm'
import { accountMembers } from '../../src/modules/accounts/accounts.table'
import type { PermissionKey } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

const BUG_PERMISSIONS = { 'bugs.view': true, 'bugs.create': true, 'bugs.edit': true, 'bugs.assign': true, 'bugs.delete': true }

/**
 * An owner with a project, a teammate (role member, granted every bugs.* permission whatever the role
 * defaults are) in the same account and an outsider with their own account.
 */
export async function team(t: TestApp, o: { plan?: 'free' | 'pro' | 'studio' } = {}) {
  const owner = await createUser(t, { plan: o.plan ?? 'studio' })
  const project = createProject(t, owner)
  const mate = await createUser(t)
  t.deps.db.insert(accountMembers).values({ accountId: owner.account.id, userId: mate.user.id, role: 'member', permissionOverrides: BUG_PERMISSIONS, createdAt: t.clock.now() }).run()
  const outsider = await createUser(t)
  const base = `/api/projects/${project.slug}`
  return { owner, project, mate, outsider, base }
}

/** Takes permissions away from the teammate (the others stay granted). */
export function deny(t: TestApp, member: TestUser, project: TestProject, ...keys: PermissionKey[]) {
  t.deps.db
    .update(accountMembers)
    .set({ permissionOverrides: { ...BUG_PERMISSIONS, ...Object.fromEntries(keys.map((k) => [k, false])) } })
    .where(eq(accountMembers.userId, member.user.id))
    .run()
  return project
}
