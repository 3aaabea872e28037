import type { Seam } from '../../db/client'
import { createAccountsRepository } from '../auth/accounts.repository'
import { canSeeProject } from '../auth/project-access'
import { createCommentsRepository } from '../comments/comments.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { profileView } from '../auth/auth.profile'
import type { User } from '../auth/auth.sessions'

export const EXPORT_FILE_NAME = 'glitchbox-export.json'

/**
 * Everything a person can take away: profile, account memberships, the projects of those accounts,
 * reports they filed anywhere plus every live report in projects of accounts they own (that data is
 * theirs to keep), and the comments they wrote. Deleted reports are left out, and so is everything of
 * the projects hidden from a member limited to chosen projects.
 */
export async function exportUserData(db: Seam, user: User, now: Date) {
  const reportsRepo = createReportsRepository({ db })
  const projectsRepo = createProjectsRepository({ db })
  const memberships = await createAccountsRepository({ db }).membershipsOf(user.id)
  const ownedIds = new Set(memberships.filter((m) => m.role === 'owner').map((m) => m.id))
  const accountRows = await projectsRepo.inAccounts(memberships.map((m) => m.id))
  const accessIn = new Map(memberships.map((m) => [m.id, m.projectIds]))
  const projectRows = accountRows.filter((p) => canSeeProject(accessIn.get(p.accountId), p.id))
  const hiddenIds = accountRows.filter((p) => !canSeeProject(accessIn.get(p.accountId), p.id)).map((p) => p.id)
  const ownedProjectIds = accountRows.filter((p) => ownedIds.has(p.accountId)).map((p) => p.id)
  const [reportRows, commentRows, profile] = await Promise.all([
    reportsRepo.exportableBy(user.id, ownedProjectIds, hiddenIds),
    createCommentsRepository({ db }).byAuthor(user.id, hiddenIds),
    db.read((q) => profileView(q, user)),
  ])
  // Slugs and report numbers in one batch each; reports filed elsewhere name projects outside the user's accounts.
  const [cards, numbers] = await Promise.all([
    projectsRepo.cardsOf([...new Set([...reportRows.map((r) => r.projectId), ...commentRows.map((c) => c.projectId)])]),
    reportsRepo.numbersOf([...new Set(commentRows.map((c) => c.reportId))]),
  ])
  const slugOf = new Map(cards.map((c) => [c.id, c.slug]))

  return {
    exported_at: now.toISOString(),
    profile,
    accounts: memberships.map((m) => ({ id: m.id, name: m.name, plan: m.plan, role: m.role, joined_at: m.joinedAt.toISOString() })),
    projects: projectRows.map((p) => ({ id: p.id, account_id: p.accountId, name: p.name, slug: p.slug, created_at: p.createdAt.toISOString() })),
    reports: reportRows.map((r) => ({
      id: r.id,
      project_slug: slugOf.get(r.projectId),
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
    comments: commentRows.map((c) => ({
      id: c.id,
      project_slug: slugOf.get(c.projectId),
      report_number: numbers.get(c.reportId),
      body: c.body,
      is_internal: c.isInternal,
      created_at: c.createdAt.toISOString(),
    })),
  }
}
