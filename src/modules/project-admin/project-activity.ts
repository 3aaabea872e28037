import { ACTIVITY_PAGE_SIZE, entryOf, type Db } from '../activity/activity.read'
import { createActivityRepository } from '../activity/activity.repository'
import { createAuthRepository } from '../auth/auth.repository'
import { createReportsRepository } from '../reports/reports.repository'

/**
 * A project's activity, newest first, 50 a page, optionally only one action; with actor name and report number.
 * Entries about a report (its title, private flag, internal comments) are report content: a caller
 * without `canReadReports` (bugs.view) sees only the project's own entries.
 */
export async function listProjectActivity(db: Db, projectId: string, o: { action?: string; page: number; canReadReports: boolean }) {
  const rows = await createActivityRepository({ db }).projectPage(projectId, { action: o.action, withReports: o.canReadReports, limit: ACTIVITY_PAGE_SIZE, offset: (o.page - 1) * ACTIVITY_PAGE_SIZE })
  const [names, reports] = await Promise.all([
    createAuthRepository({ db }).namesOf(rows.flatMap((a) => (a.actorId ? [a.actorId] : []))),
    createReportsRepository({ db }).numbersAndTitles(rows.flatMap((a) => (a.reportId ? [a.reportId] : []))),
  ])
  return rows.map((a) => {
    const report = a.reportId ? reports.get(a.reportId) : undefined
    return {
      ...entryOf(a, names),
      report_id: a.reportId,
      report_number: report?.number ?? null,
      report_title: report?.title ?? null,
      created_at: a.createdAt.toISOString(),
    }
  })
}

/** A project's audit log page (`{entries, total, page, per_page}`, newest first): its own entries plus account-wide ones (members, roles, invitations). */
export async function listAuditLog(db: Db, project: { id: string; accountId: string }, page: number) {
  const { entries, total } = await createActivityRepository({ db }).auditPage(project, { limit: ACTIVITY_PAGE_SIZE, offset: (page - 1) * ACTIVITY_PAGE_SIZE })
  const names = await createAuthRepository({ db }).namesOf(entries.flatMap((e) => (e.actorId ? [e.actorId] : [])))
  return {
    entries: entries.map((e) => ({
      id: e.seq,
      action: e.action,
      target: e.target,
      details: e.details,
      actor_id: e.actorId,
      actor_name: (e.actorId && names.get(e.actorId)) ?? null,
      created_at: e.createdAt.toISOString(),
    })),
    total,
    page,
    per_page: ACTIVITY_PAGE_SIZE,
  }
}
