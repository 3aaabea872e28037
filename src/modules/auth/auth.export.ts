import { type AnyColumn, and, asc, eq, inArray, isNull, notInArray, or } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { accountMembers, accounts } from '../accounts/accounts.table'
import { canSeeProject } from '../accounts/project-access'
import { comments } from '../comments/comments.table'
import { projects } from '../projects/projects.table'
import { reports } from '../reports/reports.table'
import { profileView } from './auth.profile'
import type { User } from './auth.sessions'

export const EXPORT_FILE_NAME = 'glitchbox-export.json'

/**
 * Everything a person can take away: profile, account memberships, the projects of those accounts,
 * reports they filed anywhere plus every live report in projects of accounts they own (that data is
 * theirs to keep), and the comments they wrote. Deleted reports are left out, and so is everything of
 * the projects hidden from a member limited to chosen projects.
 */
export async function exportUserData(db: Seam, user: User, now: Date) {
  const memberships = await db.read((q) =>
    q
      .select({ id: accounts.id, name: accounts.name, plan: accounts.plan, role: accountMembers.role, projectIds: accountMembers.projectIds, joinedAt: accountMembers.createdAt })
      .from(accountMembers)
      .innerJoin(accounts, eq(accounts.id, accountMembers.accountId))
      .where(eq(accountMembers.userId, user.id))
      .orderBy(asc(accountMembers.createdAt)),
  )
  const accountIds = memberships.map((m) => m.id)
  const ownedIds = memberships.filter((m) => m.role === 'owner').map((m) => m.id)
  const accountRows = accountIds.length
    ? await db.read((q) =>
        q
          .select({ id: projects.id, accountId: projects.accountId, name: projects.name, slug: projects.slug, createdAt: projects.createdAt })
          .from(projects)
          .where(inArray(projects.accountId, accountIds))
          .orderBy(asc(projects.createdAt)),
      )
    : []
  const accessIn = new Map(memberships.map((m) => [m.id, m.projectIds]))
  const projectRows = accountRows.filter((p) => canSeeProject(accessIn.get(p.accountId), p.id))
  const hiddenIds = accountRows.filter((p) => !canSeeProject(accessIn.get(p.accountId), p.id)).map((p) => p.id)
  const visible = <T extends AnyColumn>(column: T) => (hiddenIds.length ? notInArray(column, hiddenIds) : undefined)
  const [reportRows, commentRows, profile] = await Promise.all([
    db.read((q) =>
      q
        .select({ report: reports, projectSlug: projects.slug })
        .from(reports)
        .innerJoin(projects, eq(projects.id, reports.projectId))
        .where(
          and(
            isNull(reports.deletedAt),
            visible(reports.projectId),
            ownedIds.length ? or(eq(reports.createdBy, user.id), inArray(projects.accountId, ownedIds)) : eq(reports.createdBy, user.id),
          ),
        )
        .orderBy(asc(reports.seq)),
    ),
    db.read((q) =>
      q
        .select({ comment: comments, projectSlug: projects.slug, reportNumber: reports.reportNumber })
        .from(comments)
        .innerJoin(reports, eq(reports.id, comments.reportId))
        .innerJoin(projects, eq(projects.id, comments.projectId))
        .where(and(eq(comments.authorId, user.id), visible(comments.projectId)))
        .orderBy(asc(comments.createdAt)),
    ),
    db.read((q) => profileView(q, user)),
  ])

  return {
    exported_at: now.toISOString(),
    profile,
    accounts: memberships.map((m) => ({ id: m.id, name: m.name, plan: m.plan, role: m.role, joined_at: m.joinedAt.toISOString() })),
    projects: projectRows.map((p) => ({ id: p.id, account_id: p.accountId, name: p.name, slug: p.slug, created_at: p.createdAt.toISOString() })),
    reports: reportRows.map(({ report: r, projectSlug }) => ({
      id: r.id,
      project_slug: projectSlug,
      report_number: r.reportNumber,
      title: r.title,
      description: r.description,
      status: r.status,
      priority: r.priority,
      category: r.category,
      platform: r.platform,
      game_version: r.gameVersion,
      steps_to_reproduce: r.stepsToReproduce,
      expected_behavior: r.expectedBehavior,
      actual_behavior: r.actualBehavior,
      filed_by_you: r.createdBy === user.id,
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    })),
    comments: commentRows.map(({ comment: c, projectSlug, reportNumber }) => ({
      id: c.id,
      project_slug: projectSlug,
      report_number: reportNumber,
      body: c.body,
      is_internal: c.isInternal,
      created_at: c.createdAt.toISOString(),
    })),
  }
}
