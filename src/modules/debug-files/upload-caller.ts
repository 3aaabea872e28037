import type { Seam } from '../../db/client'
import { bearer } from '../../http/auth.plugin'
import { forbidden, notFound, unauthorized } from '../../http/errors'
import { createAccountsRepository } from '../auth/accounts.repository'
import { findApiToken, hasScope } from '../auth/api-tokens'
import type { ApiTokenRow } from '../auth/api-tokens.repository'
import { findSessionUser, type User } from '../auth/auth.sessions'
import { canSeeProject } from '../auth/project-access'
import { createProjectsRepository } from '../projects/projects.repository'

/** Who sends debug files: a person, through an API token (with its limits) or a session. */
export interface Uploader {
  user: User
  token: ApiTokenRow | null
}

export type UploadProject = NonNullable<Awaited<ReturnType<ReturnType<typeof createProjectsRepository>['rowBySlug']>>>

export const UPLOAD_SCOPE = 'debug_files.upload'

/**
 * The uploader behind `Authorization: Bearer`: an API token with the `debug_files.upload` scope
 * (403 without it), or a session token. 401 for anything else.
 */
export async function uploaderOf(db: Seam, headers: Record<string, string | undefined>, now: Date): Promise<Uploader> {
  const presented = bearer(headers)
  if (!presented) throw unauthorized('missing API token: set SENTRY_AUTH_TOKEN to a Glitchbox API token')
  const api = await findApiToken(db, presented, now)
  if (api) {
    if (!hasScope(api.token, UPLOAD_SCOPE)) throw forbidden(`this API token lacks the ${UPLOAD_SCOPE} scope`)
    return { user: api.user, token: api.token }
  }
  const session = await findSessionUser(db, presented, now)
  if (!session) throw unauthorized('invalid API token')
  return { user: session.user, token: null }
}

/**
 * The project `slug` names, when the uploader may send it files: a member who sees it, with a token
 * for that project or for all. 404 for a project they cannot see, 403 for a token limited to another.
 */
export async function uploadProject(db: Seam, uploader: Uploader, slug: string): Promise<UploadProject> {
  const project = await createProjectsRepository({ db }).rowBySlug(slug)
  const membership = project && (await createAccountsRepository({ db }).membership(project.accountId, uploader.user.id))
  if (!project || !membership || !canSeeProject(membership.projectIds, project.id)) throw notFound(`project ${slug} not found`)
  if (uploader.token?.projectId && uploader.token.projectId !== project.id) throw forbidden(`this API token is limited to another project than ${slug}`)
  return project
}
