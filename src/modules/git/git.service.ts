import type { AppDeps } from '../../app-deps'
import { badGateway, badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { assertPublicUrl, UnsafeTargetError } from '../../net/safe-fetch'
import { recordAudit } from '../activity/activity.service'
import { encryptSecret, readStoredSecret, secretHint } from '../integrations/credentials.crypto'
import { ProviderError } from '../integrations/providers/provider.types'
import { checkRepo, searchIssues } from './git.client'
import { parseRepoUrl, type Repo } from './git.repo'
import { createGitRepository, type GitConnection } from './git.repository'
import type { ConnectGitBody } from './git.schemas'

interface ProjectRef {
  id: string
  accountId: string
}

export type { GitConnection }

const git = (deps: Pick<AppDeps, 'db'>) => createGitRepository({ db: deps.db })

/** The connection as the API shows it: never the token, only its hint. */
function view(c: GitConnection) {
  return {
    id: c.id,
    provider: c.provider,
    repo_url: c.repoUrl,
    repo_path: c.repoPath,
    auto_create_issues: c.autoCreateIssues,
    last_auto_issue_error: c.autoErrorMessage === null ? null : { message: c.autoErrorMessage, report_number: c.autoErrorReportNumber, at: c.autoErrorAt?.toISOString() ?? null },
    token_hint: c.tokenHint,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  }
}

/** The project's repository connection, or 404. */
export async function connectionOf(deps: Pick<AppDeps, 'db'>, projectId: string): Promise<GitConnection> {
  const c = await git(deps).connectionOf(projectId)
  if (!c) throw notFound('no git repository is connected to this project')
  return c
}

/** The repository and decrypted token of a stored connection. */
export async function repoOf(deps: Pick<AppDeps, 'config' | 'secrets'>, c: GitConnection): Promise<{ repo: Repo; token: string }> {
  return { repo: parseRepoUrl(deps.config, c.provider, c.repoUrl), token: await readStoredSecret(deps.secrets, c.tokenEnc, c.id, 'access token', 'enter it again (PATCH access_token)') }
}

/** Runs a provider call from a request: its refusal becomes 502 with the provider's words. */
export async function asGateway<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (err instanceof ProviderError) throw badGateway(err.message)
    throw err
  }
}

/** A self-hosted repository host must be one the server may reach (SSRF guard); 400 naming repo_url. */
async function checkReachable(deps: AppDeps, repo: Repo): Promise<void> {
  if (!repo.selfHosted) return
  try {
    await assertPublicUrl(repo.apiBase, { allowPrivate: deps.config.allowPrivateTargets })
  } catch (err) {
    if (err instanceof UnsafeTargetError) throw badRequest(`repo_url: ${err.message}`)
    throw err
  }
}

/** Connects the project's repository after checking the token against it; 409 when one is connected, 502 when the provider refuses. */
export async function connectGit(deps: AppDeps, project: ProjectRef, actorId: string, body: ConnectGitBody) {
  const repo = parseRepoUrl(deps.config, body.provider, body.repo_url)
  if (await git(deps).connectionOf(project.id)) {
    throw conflict('a git repository is already connected to this project; remove it first')
  }
  await checkReachable(deps, repo)
  await asGateway(() => checkRepo(deps, repo, body.access_token))
  const id = newId()
  const now = deps.clock.now()
  const tokenEnc = await encryptSecret(deps.secrets, body.access_token, id)
  await deps.db.write(async (tx) => {
    await git(deps).insertConnection({ id, projectId: project.id, provider: body.provider, repoUrl: repo.webUrl, repoPath: repo.path, tokenEnc, tokenHint: secretHint(body.access_token), autoCreateIssues: body.auto_create_issues ?? false, createdBy: actorId, createdAt: now, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'git.connected', target: id, details: { provider: body.provider, repo: repo.webUrl } })
  })
  return view(await connectionOf(deps, project.id))
}

/** The connected repository, or 404. */
export const getGit = async (deps: Pick<AppDeps, 'db'>, projectId: string) => view(await connectionOf(deps, projectId))

/** Turns automatic issues on or off, or replaces the token (checked against the repository first). */
export async function updateGit(deps: AppDeps, project: ProjectRef, actorId: string, body: { auto_create_issues?: boolean; access_token?: string }) {
  const c = await connectionOf(deps, project.id)
  if (body.auto_create_issues === undefined && body.access_token === undefined) throw badRequest('no valid fields to update (auto_create_issues, access_token)')
  const set: { tokenEnc?: string; tokenHint?: string; autoCreateIssues?: boolean } = {}
  if (body.access_token !== undefined) {
    const { repo } = await repoOf(deps, c)
    await checkReachable(deps, repo)
    await asGateway(() => checkRepo(deps, repo, body.access_token!))
    set.tokenEnc = await encryptSecret(deps.secrets, body.access_token, c.id)
    set.tokenHint = secretHint(body.access_token)
  }
  if (body.auto_create_issues !== undefined) set.autoCreateIssues = body.auto_create_issues
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    await git(deps).updateConnection(c.id, { ...set, updatedAt: now })
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'git.updated', target: c.id, details: { fields: Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined) } })
  })
  return view(await connectionOf(deps, project.id))
}

/** Disconnects the repository; links already made stay on their reports. */
export async function deleteGit(deps: AppDeps, project: ProjectRef, actorId: string) {
  const c = await connectionOf(deps, project.id)
  await deps.db.write(async (tx) => {
    await git(deps).removeConnection(c.id)
    await recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'git.disconnected', target: c.id, details: { repo: c.repoUrl } })
  })
  return { message: 'Git repository disconnected' }
}

/** Searches the repository's issues (up to 20); 502 when the provider refuses. */
export async function searchRepoIssues(deps: AppDeps, projectId: string, q: string | undefined) {
  const { repo, token } = await repoOf(deps, await connectionOf(deps, projectId))
  return asGateway(() => searchIssues(deps, repo, token, q))
}
