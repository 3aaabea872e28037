import { and, eq, isNotNull } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { badRequest } from '../../http/errors'
import { accountMembers } from '../accounts/accounts.table'
import { canSeeProject, storedAccess, type ProjectAccess } from '../accounts/project-access'
import { projects } from '../projects/projects.table'
import { invitations } from './team.table'

/**
 * `access` checked and in stored form: owners and admins see every project (only members are limited),
 * and each id must name a project of the account that `viewerIds` (the one granting it) sees: another
 * id answers 400 as an unknown one, so a limited inviter learns nothing about the projects hidden from them.
 */
export function checkedAccess(db: DbOrTx, o: { accountId: string; role: string; access: ProjectAccess; viewerIds: string[] | null }): string[] | null {
  const ids = storedAccess(o.access)
  if (!ids) return null
  if (o.role !== 'member') throw badRequest('owners and admins see every project: only members can be limited to chosen projects (project_access "all")')
  const known = new Set(
    db
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.accountId, o.accountId))
      .all()
      .map((p) => p.id)
      .filter((id) => canSeeProject(o.viewerIds, id)),
  )
  const unknown = ids.filter((id) => !known.has(id))
  if (unknown.length) throw badRequest(`project_access names no project of this account: ${unknown.join(', ')}`)
  return ids
}

/** Drops a deleted project from the lists of the account's limited members and pending invitations. */
export function forgetProjectAccess(tx: DbOrTx, accountId: string, projectId: string): void {
  const members = tx
    .select({ userId: accountMembers.userId, projectIds: accountMembers.projectIds })
    .from(accountMembers)
    .where(and(eq(accountMembers.accountId, accountId), isNotNull(accountMembers.projectIds)))
    .all()
  for (const m of members.filter((m) => m.projectIds!.includes(projectId))) {
    tx.update(accountMembers)
      .set({ projectIds: m.projectIds!.filter((id) => id !== projectId) })
      .where(and(eq(accountMembers.accountId, accountId), eq(accountMembers.userId, m.userId)))
      .run()
  }
  const invites = tx
    .select({ id: invitations.id, projectIds: invitations.projectIds })
    .from(invitations)
    .where(and(eq(invitations.accountId, accountId), isNotNull(invitations.projectIds)))
    .all()
  for (const i of invites.filter((i) => i.projectIds!.includes(projectId))) {
    tx.update(invitations)
      .set({ projectIds: i.projectIds!.filter((id) => id !== projectId) })
      .where(eq(invitations.id, i.id))
      .run()
  }
}
