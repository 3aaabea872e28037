import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { users } from '../auth/auth.table'
import { reports } from '../reports/reports.table'
import { activity, auditLog } from './activity.table'

export const ACTIVITY_PAGE_SIZE = 50

const actorName = sql<string | null>`coalesce(${users.displayName}, ${users.name})`

/**
 * A project's activity, newest first, 50 a page, optionally only one action; with actor name and report number.
 * Entries about a report (its title, private flag, internal comments) are report content: a caller
 * without `canReadReports` (bugs.view) sees only the project's own entries.
 */
export function listProjectActivity(db: DbOrTx, projectId: string, o: { action?: string; page: number; canReadReports: boolean }) {
  const where = and(eq(activity.projectId, projectId), o.action ? eq(activity.action, o.action) : undefined, o.canReadReports ? undefined : isNull(activity.reportId))
  return db
    .select({ a: activity, actorName, reportNumber: reports.reportNumber, reportTitle: reports.title })
    .from(activity)
    .leftJoin(users, eq(users.id, activity.actorId))
    .leftJoin(reports, eq(reports.id, activity.reportId))
    .where(where)
    .orderBy(desc(activity.seq))
    .limit(ACTIVITY_PAGE_SIZE)
    .offset((o.page - 1) * ACTIVITY_PAGE_SIZE)
    .all()
    .map(({ a, actorName, reportNumber, reportTitle }) => ({
      id: a.seq,
      action: a.action,
      field: a.field,
      old_value: a.oldValue,
      new_value: a.newValue,
      actor_id: a.actorId,
      actor_name: actorName,
      report_id: a.reportId,
      report_number: reportNumber,
      report_title: reportTitle,
      created_at: a.createdAt.toISOString(),
    }))
}

/** A project's audit log page (`{entries, total, page, per_page}`, newest first): its own entries plus account-wide ones (members, roles, invitations). */
export function listAuditLog(db: DbOrTx, project: { id: string; accountId: string }, page: number) {
  const scope = or(eq(auditLog.projectId, project.id), and(eq(auditLog.accountId, project.accountId), isNull(auditLog.projectId)))
  const entries = db
    .select({ e: auditLog, actorName })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(scope)
    .orderBy(desc(auditLog.seq))
    .limit(ACTIVITY_PAGE_SIZE)
    .offset((page - 1) * ACTIVITY_PAGE_SIZE)
    .all()
    .map(({ e, actorName }) => ({
      id: e.seq,
      action: e.action,
      target: e.target,
      details: e.details,
      actor_id: e.actorId,
      actor_name: actorName,
      created_at: e.createdAt.toISOString(),
    }))
  const [{ total }] = db.select({ total: count() }).from(auditLog).where(scope).all() as [{ total: number }]
  return { entries, total, page, per_page: ACTIVITY_PAGE_SIZE }
}
