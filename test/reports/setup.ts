import { eq } from 'drizzle-orm'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import type { PermissionKey } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { pgRows, sqlRun } from '../helpers/sql-rows'
import type { TestApp } from '../helpers/test-app'

const BUG_PERMISSIONS = { 'bugs.view': true, 'bugs.create': true, 'bugs.edit': true, 'bugs.assign': true, 'bugs.delete': true }

/**
 * An owner with a project, a teammate (role member, granted every bugs.* permission whatever the role
 * defaults are) in the same account and an outsider with their own account.
 */
export async function team(t: TestApp, o: { plan?: 'free' | 'pro' | 'studio' } = {}) {
  const owner = await createUser(t, { plan: o.plan ?? 'studio' })
  const project = await createProject(t, owner)
  const mate = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: mate.user.id, role: 'member', permissionOverrides: BUG_PERMISSIONS, createdAt: t.clock.now() }))
  const outsider = await createUser(t)
  const base = `/api/projects/${project.slug}`
  return { owner, project, mate, outsider, base }
}

/** Takes permissions away from the teammate (the others stay granted). */
export async function deny(t: TestApp, member: TestUser, project: TestProject, ...keys: PermissionKey[]) {
  await t.deps.db.write((q) =>
    q
      .update(accountMembers)
      .set({ permissionOverrides: { ...BUG_PERMISSIONS, ...Object.fromEntries(keys.map((k) => [k, false])) } })
      .where(eq(accountMembers.userId, member.user.id)),
  )
  return project
}

/**
 * `n` live reports numbered from `first` on, inserted straight into the table in one statement (in
 * number order): thousands of rows without filing each. The project's number counter is left as it is.
 * Portable SQL (either engine).
 */
export async function manyReports(t: TestApp, project: TestProject, n: number, first = 1) {
  const now = t.clock.now().getTime()
  const numbers = `(WITH RECURSIVE s(i) AS (SELECT ${Number(first)} UNION ALL SELECT i + 1 FROM s WHERE i < ${Number(first) + Number(n) - 1}) SELECT i FROM s) n`
  await sqlRun(t, `INSERT INTO reports (id, project_id, report_number, title, description, created_at, updated_at) SELECT CAST(? AS TEXT) || '-bulk-' || n.i, ?, n.i, 'Bulk', 'd', CAST(? AS BIGINT), CAST(? AS BIGINT) FROM ${numbers} ORDER BY n.i`, project.id, project.id, now, now)
  await sqlRun(t, 'UPDATE projects SET live_report_count = live_report_count + ? WHERE id = ?', n, project.id)
  await analyzed(t)
}

/**
 * On PostgreSQL, the planner's statistics after a bulk insert, as autovacuum takes them on a running
 * server within a minute of such a burst (a test is over sooner): planned from the empty template's
 * statistics, a filter's walk of 10,001 keys scanned the reports once per key (8 s a request).
 */
async function analyzed(t: TestApp) {
  if (t.config.databaseUrl) await pgRows(t.config.databaseUrl, 'ANALYZE reports, report_facets')
}

/**
 * `n` live reports (numbers 10,001 on) each with a `1.0` version facet: a match past the 10,000 cap
 * without 10,000 API calls.
 */
export async function manyWithFacet(t: TestApp, project: TestProject, n: number) {
  await manyReports(t, project, n, 10_001)
  await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT project_id, 1, '1.0', seq FROM reports WHERE project_id = ? AND report_number > 10000", project.id)
  await analyzed(t)
}
