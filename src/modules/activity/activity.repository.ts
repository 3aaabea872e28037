import { and, asc, count, desc, eq, inArray, isNotNull, isNull, max, or } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { activity, auditLog } from './activity.table'

export type ActivityRow = typeof activity.$inferSelect
export type AuditRow = typeof auditLog.$inferSelect

/** Activity rows per INSERT: 8 bound values each, well under either engine's limit on one statement's parameters. */
const ACTIVITY_BATCH = 1000

/** The audit entries a project's log shows: its own plus the account-wide ones (members, roles, invitations). */
const auditScope = (project: { id: string; accountId: string }) => or(eq(auditLog.projectId, project.id), and(eq(auditLog.accountId, project.accountId), isNull(auditLog.projectId)))

/**
 * Reads and writes of activity and audit_log, as async functions over the database seam. The writes
 * run in the caller's write when `db` is its handle (a write inside a write joins it): every domain
 * records its activity and audit entries in the transaction of the change they describe.
 */
export function createActivityRepository({ db }: { db: Seam }) {
  return {
    /** A page of a project's activity, newest first, optionally one action; `withReports: false` keeps the project's own entries only. */
    projectPage: (projectId: string, o: { action?: string; withReports: boolean; limit: number; offset: number }) =>
      db.read((q) =>
        q
          .select()
          .from(activity)
          .where(and(eq(activity.projectId, projectId), o.action ? eq(activity.action, o.action) : undefined, o.withReports ? undefined : isNull(activity.reportId)))
          .orderBy(desc(activity.seq))
          .limit(o.limit)
          .offset(o.offset),
      ),

    /** A report's activity, oldest first. */
    ofReport: (reportId: string) => db.read((q) => q.select().from(activity).where(eq(activity.reportId, reportId)).orderBy(asc(activity.seq))),

    /** Whether a person (not the system) changed this field of the report, as its activity records. */
    editedByPerson: async (reportId: string, field: string): Promise<boolean> =>
      (
        await db.read((q) =>
          q
            .select({ seq: activity.seq })
            .from(activity)
            .where(and(eq(activity.reportId, reportId), eq(activity.action, 'updated'), eq(activity.field, field), isNotNull(activity.actorId)))
            .limit(1),
        )
      ).length > 0,

    /** When each of these reports last had an entry of `action`, by report id (reports without one left out). */
    lastOfReports: async (reportIds: string[], action: string): Promise<Map<string, Date>> => {
      if (reportIds.length === 0) return new Map()
      const rows = await db.read((q) =>
        q
          .select({ reportId: activity.reportId, at: max(activity.createdAt) })
          .from(activity)
          .where(and(inArray(activity.reportId, reportIds), eq(activity.action, action)))
          .groupBy(activity.reportId),
      )
      return new Map(rows.flatMap((r) => (r.reportId && r.at ? [[r.reportId, r.at] as const] : [])))
    },

    /** A page of a project's audit log, newest first, with the number of entries in it. */
    auditPage: async (project: { id: string; accountId: string }, o: { limit: number; offset: number }) => {
      const [entries, [total]] = await Promise.all([
        db.read((q) => q.select().from(auditLog).where(auditScope(project)).orderBy(desc(auditLog.seq)).limit(o.limit).offset(o.offset)),
        db.read((q) => q.select({ n: count() }).from(auditLog).where(auditScope(project))),
      ])
      return { entries, total: total?.n ?? 0 }
    },

    /**
     * Inserts activity entries, a statement per 1,000 (the ingest path records one per report): a bulk
     * change of 10,000 reports in one statement would bind 80,000 values, past PostgreSQL's 65,535.
     */
    insertActivity: (rows: (typeof activity.$inferInsert)[]) =>
      db.write(async (q) => {
        for (let i = 0; i < rows.length; i += ACTIVITY_BATCH) await q.insert(activity).values(rows.slice(i, i + ACTIVITY_BATCH))
      }),

    /** Appends one audit log entry. */
    insertAudit: (row: typeof auditLog.$inferInsert) =>
      db.write(async (q) => {
        await q.insert(auditLog).values(row)
      }),

    /** Deletes a project's activity feed. */
    deleteOfProject: (projectId: string) =>
      db.write(async (q) => {
        await q.delete(activity).where(eq(activity.projectId, projectId))
      }),

    /** Deletes the audit log of these accounts (audit rows carry an account id without a foreign key). */
    deleteAuditOf: (accountIds: string[]) => (accountIds.length ? db.write((q) => q.delete(auditLog).where(inArray(auditLog.accountId, accountIds))) : Promise.resolve()),
  }
}
