import type * as z from 'zod'
import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { createAccountsRepository } from '../auth/accounts.repository'
import { apiTokenView, createApiToken } from '../auth/api-tokens'
import { createApiTokensRepository } from '../auth/api-tokens.repository'
import type { User } from '../auth/auth.sessions'
import { canSeeProject } from '../auth/project-access'
import { createProjectsRepository } from '../projects/projects.repository'
import type { apiTokenBody } from './account-data.schemas'

/** The user's API tokens, newest first, each with the slug of the project it is limited to. */
export async function listApiTokens(db: Seam, user: User) {
  const rows = await createApiTokensRepository({ db }).ofUser(user.id)
  const projects = await createProjectsRepository({ db }).byIds(rows.flatMap((r) => (r.projectId ? [r.projectId] : [])))
  // A token whose project was deleted acts on nothing; it still lists, by the id it kept.
  return rows.map((r) => apiTokenView(r, r.projectId ? (projects.get(r.projectId)?.slug ?? r.projectId) : null))
}

/** Creates a token, limited to a project the user can see when `project` names one; the token is in this answer only. */
export async function createUserApiToken(db: Seam, user: User, input: z.output<typeof apiTokenBody>, now: Date) {
  let projectId: string | null = null
  if (input.project) {
    const project = await createProjectsRepository({ db }).rowBySlug(input.project)
    const membership = project && (await createAccountsRepository({ db }).membership(project.accountId, user.id))
    if (!project || !membership || !canSeeProject(membership.projectIds, project.id)) throw notFound('project not found')
    projectId = project.id
  }
  const { row, token } = await createApiToken(db, { user, name: input.name, scopes: input.scopes, projectId, now })
  return { ...apiTokenView(row, input.project ?? null), token }
}
