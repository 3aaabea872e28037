import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { forbidden } from '../../http/errors'
import { forgetSdkCallers } from '../../http/sdk-callers'
import { deleteProjectActivity, recordAudit } from '../activity/activity.service'
import type { Membership } from '../auth/accounts.repository'
import { recountStorage, workingAccountOf } from '../auth/accounts.service'
import type { User } from '../auth/auth.sessions'
import { dsnOf } from '../projects/dsn'
import { createProjectsRepository, type Project } from '../projects/projects.repository'
import { previousKeyView, projectSummary } from '../projects/projects.service'
import { createReportsRepository } from '../reports/reports.repository'
import { STATUSES, type Status } from '../reports/reports.types'
import { forgetProjectAccess } from '../team/project-access.service'
import { projectFileKeys } from './project-files'

export type BugCounts = { total: number } & Record<Status, number>

/** Live report counts by status for `projectIds`, read from the trigger-maintained counts table. */
export async function bugCountsOf(db: Seam, projectIds: string[]): Promise<Map<string, BugCounts>> {
  const out = new Map<string, BugCounts>()
  for (const id of projectIds) out.set(id, { total: 0, ...(Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>) })
  if (projectIds.length === 0) return out
  const rows = await createReportsRepository({ db }).statusCountsOf(projectIds)
  for (const r of rows) {
    const c = out.get(r.projectId)!
    c[r.status] += r.n
    c.total += r.n
  }
  return out
}

/** The projects of the account the user works in that they see, each with its live bug counts. */
export async function listProjects(deps: Pick<AppDeps, 'db'>, user: Pick<User, 'id' | 'currentAccountId'>) {
  const current = await workingAccountOf(deps.db, user)
  if (!current) return []
  const rows = await createProjectsRepository({ db: deps.db }).listInAccount(current.account.id, current.membership.projectIds)
  const counts = await bugCountsOf(deps.db, rows.map((p) => p.id))
  return rows.map((p) => ({ ...projectSummary(p), bug_counts: counts.get(p.id)! }))
}

/** The project with settings, SDK settings, API key (and the one before while its grace runs) and Sentry DSN, stats and the caller's role. */
export async function projectDetail(db: Seam, project: Project, membership: Membership, o: { publicUrl: string; now: Date }) {
  const c = (await bugCountsOf(db, [project.id])).get(project.id)!
  return {
    ...projectSummary(project),
    api_key: project.apiKey,
    ...previousKeyView(project, o.now),
    dsn_id: project.dsnId,
    dsn: dsnOf(o.publicUrl, project.apiKey, project.dsnId),
    created_by: project.createdBy,
    updated_at: project.updatedAt.toISOString(),
    settings: { is_public: project.isPublic, bug_grouping: project.bugGrouping },
    sdk_settings: {
      screenshot_capture: project.screenshotCapture,
      session_capture: project.sessionCapture,
      auto_file_errors: project.autoFileErrors,
      capture_editor_errors: project.captureEditorErrors,
      capture_warnings: project.captureWarnings,
    },
    stats: {
      total_reports: c.total,
      open_reports: c.open,
      in_progress_reports: c.in_progress,
      resolved_reports: c.resolved,
      closed_reports: c.closed,
      wont_fix_reports: c.wont_fix,
      first_report_at: project.firstReportAt?.toISOString() ?? null,
    },
    role: membership.role,
  }
}

/**
 * Deletes the project with its reports (and, by cascade, everything hanging off them), then its
 * stored files. Only the account owner or the project's creator may; quota counters stay as they are.
 */
export async function deleteProject(deps: Pick<AppDeps, 'db' | 'clock' | 'files'>, ctx: { project: Project; membership: Membership; userId: string }) {
  if (ctx.membership.role !== 'owner' && ctx.project.createdBy !== ctx.userId) {
    throw forbidden('only the account owner or the project creator can delete this project')
  }
  const now = deps.clock.now()
  const keys = await deps.db.write(async (tx) => {
    const keys = await projectFileKeys(deps.db, ctx.project.id)
    await createProjectsRepository({ db: deps.db }).remove(ctx.project.id)
    await recountStorage(tx, ctx.project.accountId)
    await deleteProjectActivity(tx, ctx.project.id)
    await forgetProjectAccess(deps.db, ctx.project.accountId, ctx.project.id)
    await recordAudit(tx, now, {
      accountId: ctx.project.accountId,
      projectId: ctx.project.id,
      actorId: ctx.userId,
      action: 'project.deleted',
      target: ctx.project.id,
      details: { name: ctx.project.name, slug: ctx.project.slug },
    })
    return keys
  })
  forgetSdkCallers(deps.db)
  // Files go only once the rows are gone, so a failed delete never leaves reports pointing at nothing.
  await deps.files.remove(deps.db, keys)
}
