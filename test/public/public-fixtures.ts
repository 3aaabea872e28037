import { eq } from 'drizzle-orm'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { comments } from '../../src/modules/comments/comments.table'
import type { Report } from '../../src/modules/reports/reports.service'
import { reports } from '../../src/modules/reports/reports.table'
import { newId } from '../../src/lib/ids'
import { createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import type { TestApp } from '../helpers/test-app'

/** A new user made a `member` of `owner`'s account, with the given permission overrides. */
export async function addMember(t: TestApp, owner: TestUser, overrides: Record<string, boolean> = {}) {
  const member = await createUser(t)
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: owner.account.id, userId: member.user.id, role: 'member', permissionOverrides: overrides, createdAt: t.clock.now() }))
  return member
}

/** Puts public-page settings through the real PUT route and expects success. */
export async function putSettings(t: TestApp, user: TestUser, project: TestProject, path: string, body: Record<string, unknown>) {
  const res = await t.request('PUT', `/api/projects/${project.slug}/${path}`, { token: user.token, body })
  if (res.status !== 200) throw new Error(`PUT ${path} answered ${res.status}: ${JSON.stringify(res.body)}`)
  return res.body.data
}

/** Inserts a comment row directly (the comments route belongs to another module). */
export async function addComment(t: TestApp, report: Report, o: { authorId: string | null; body: string; isInternal?: boolean }) {
  const id = newId()
  await t.deps.db.write((q) =>
    q.insert(comments).values({ id, reportId: report.id, projectId: report.projectId, authorId: o.authorId, body: o.body, isInternal: o.isInternal ?? false, createdAt: t.clock.now(), updatedAt: t.clock.now() }),
  )
  t.clock.advance(1000)
  return id
}

/** Changes report columns directly (status, privacy, deletion, upvotes, assignee). */
export async function setReport(t: TestApp, report: Report, patch: Partial<typeof reports.$inferInsert>) {
  await t.deps.db.write((q) => q.update(reports).set(patch).where(eq(reports.id, report.id)))
}
