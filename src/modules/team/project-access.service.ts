import type { Seam } from '../../db/client'
import { badRequest } from '../../http/errors'
import { createAccountsRepository } from '../auth/accounts.repository'
import { canSeeProject, storedAccess, type ProjectAccess } from '../auth/project-access'
import { createProjectsRepository } from '../projects/projects.repository'
import { createTeamRepository } from './team.repository'

/**
 * `access` checked and in stored form: owners and admins see every project (only members are limited),
 * and each id must name a project of the account that `viewerIds` (the one granting it) sees: another
 * id answers 400 as an unknown one, so a limited inviter learns nothing about the projects hidden from them.
 */
export async function checkedAccess(db: Seam, o: { accountId: string; role: string; access: ProjectAccess; viewerIds: string[] | null }): Promise<string[] | null> {
  const ids = storedAccess(o.access)
  if (!ids) return null
  if (o.role !== 'member') throw badRequest('owners and admins see every project: only members can be limited to chosen projects (project_access "all")')
  const known = new Set((await createProjectsRepository({ db }).idsInAccount(o.accountId)).filter((id) => canSeeProject(o.viewerIds, id)))
  const unknown = ids.filter((id) => !known.has(id))
  if (unknown.length) throw badRequest(`project_access names no project of this account: ${unknown.join(', ')}`)
  return ids
}

/** Drops a deleted project from the lists of the account's limited members and pending invitations, in one write. */
export async function forgetProjectAccess(db: Seam, accountId: string, projectId: string): Promise<void> {
  const accounts = createAccountsRepository({ db })
  const team = createTeamRepository({ db })
  await db.write(async () => {
    for (const m of (await accounts.limitedMembers(accountId)).filter((m) => m.projectIds!.includes(projectId))) {
      await accounts.updateMember(accountId, m.userId, { projectIds: m.projectIds!.filter((id) => id !== projectId) })
    }
    for (const i of (await team.limited(accountId)).filter((i) => i.projectIds!.includes(projectId))) {
      await team.setProjectIds(i.id, i.projectIds!.filter((id) => id !== projectId))
    }
  })
}
