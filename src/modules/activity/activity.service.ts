import type { Seam } from '../../db/client'
import { createActivityRepository } from './activity.repository'

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

/**
 * Records report/project activity entries (who changed which field from what to what), in one insert.
 * `tx`: the caller's write handle (or the seam), so the entries commit or roll back with its change.
 */
export async function recordActivity(tx: Seam, now: Date, entries: ActivityEntry[]): Promise<void> {
  if (entries.length === 0) return
  await createActivityRepository({ db: tx }).insertActivity(
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

/** Appends to the audit log of settings, label, member, permission, invitation and integration changes (in the caller's write `tx`). */
export async function recordAudit(tx: Seam, now: Date, e: AuditEntry): Promise<void> {
  await createActivityRepository({ db: tx }).insertAudit({ accountId: e.accountId, projectId: e.projectId ?? null, actorId: e.actorId, action: e.action, target: e.target ?? null, details: e.details ?? null, createdAt: now })
}

/** Drops a deleted project's activity feed (the audit log keeps its own record of the deletion). */
export async function deleteProjectActivity(tx: Seam, projectId: string): Promise<void> {
  await createActivityRepository({ db: tx }).deleteOfProject(projectId)
}
