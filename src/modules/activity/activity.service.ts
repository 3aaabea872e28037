import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { activity, auditLog } from './activity.table'

export interface ActivityEntry {
  projectId: string
  reportId?: string | null
  actorId: string | null
  /** e.g. created, updated, deleted, commented, labeled */
  action: string
  field?: string | null
  oldValue?: unknown
  newValue?: unknown
}

const text = (v: unknown) => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v))

/** Records report/project activity entries (who changed which field from what to what). */
export function recordActivity(tx: DbOrTx, now: Date, entries: ActivityEntry[]): void {
  if (entries.length === 0) return
  tx.insert(activity)
    .values(
      entries.map((e) => ({
        projectId: e.projectId,
        reportId: e.reportId ?? null,
        actorId: e.actorId,
        action: e.action,
        field: e.field ?? null,
        oldValue: text(e.oldValue),
        newValue: text(e.newValue),
        createdAt: now,
      })),
    )
    .run()
}

export interface AuditEntry {
  accountId: string
  projectId?: string | null
  actorId: string | null
  /** e.g. project.updated, label.created, member.role_changed, invite.created, integration.deleted */
  action: string
  target?: string | null
  details?: Record<string, unknown>
}

/** Appends to the audit log of settings, label, member, permission, invitation and integration changes. */
export function recordAudit(tx: DbOrTx, now: Date, e: AuditEntry): void {
  tx.insert(auditLog)
    .values({ accountId: e.accountId, projectId: e.projectId ?? null, actorId: e.actorId, action: e.action, target: e.target ?? null, details: e.details ?? null, createdAt: now })
    .run()
}

/** Drops a deleted project's activity feed (the audit log keeps its own record of the deletion). */
export function deleteProjectActivity(tx: DbOrTx, projectId: string): void {
  tx.delete(activity).where(eq(activity.projectId, projectId)).run()
}
