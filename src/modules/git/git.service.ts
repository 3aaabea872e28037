import { eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badGateway, badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { assertPublicUrl, UnsafeTargetError } from '../../net/safe-fetch'
import { recordAudit } from '../activity/activity.service'
import { encryptSecret, readStoredSecret, secretHint } from '../integrations/credentials.crypto'
import { ProviderError } from '../integrations/providers/provider.types'
import { checkRepo, searchIssues } from './git.client'
import { parseRepoUrl, type Repo } from './git.repo'
import type { ConnectGitBody } from './git.schemas'
import { gitConnections } from './git.table'

interface ProjectRef {
  id: string
  accountId: string
}

export type GitConnection = typeof gitConnections.$inferSelect

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
export function connectionOf(db: DbOrTx, projectId: string): GitConnection {
  const c = db.select().from(gitConnections).where(eq(gitConnections.projectId, projectId)).get()
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
  if (deps.db.select({ id: gitConnections.id }).from(gitConnections).where(eq(gitConnections.projectId, project.id)).get()) {
    throw conflict('a git repository is already connected to this project; remove it first')
  }
  await checkReachable(deps, repo)
  await asGateway(() => checkRepo(deps, repo, body.access_token))
  const id = newId()
  const now = deps.clock.now()
  const tokenEnc = await encryptSecret(deps.secrets, body.access_token, id)
  deps.db.transaction((tx) => {
    tx.insert(gitConnections)
      .values({ id, projectId: project.id, provider: body.provider, repoUrl: repo.webUrl, repoPath: repo.path, tokenEnc, tokenHint: secretHint(body.access_token), autoCreateIssues: body.auto_create_issues ?? false, createdBy: actorId, createdAt: now, updatedAt: now })
      .run()
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'git.connected', target: id, details: { provider: body.provider, repo: repo.webUrl } })
  })
  return view(connectionOf(deps.db, project.id))
}

/** The connected repository, or 404. */
export const getGit = (db: DbOrTx, projectId: string) => view(connectionOf(db, projectId))

/** Turns automatic issues on or off, or replaces the token (checked against the repository first). */
export async function updateGit(deps: AppDeps, project: ProjectRef, actorId: string, body: { auto_create_issues?: boolean; access_token?: string }) {
  const c = connectionOf(deps.db, project.id)
  if (body.auto_create_issues === undefined && body.access_token === undefined) throw badRequest('no valid fields to update (auto_create_issues, access_token)')
  const set: Partial<typeof gitConnections.$inferInsert> = {}
  if (body.access_token !== undefined) {
    const { repo } = await repoOf(deps, c)
    await checkReachable(deps, repo)
    await asGateway(() => checkRepo(deps, repo, body.access_token!))
    set.tokenEnc = await encryptSecret(deps.secrets, body.access_token, c.id)
    set.tokenHint = secretHint(body.access_token)
  }
  if (body.auto_create_issues !== undefined) set.autoCreateIssues = body.auto_create_issues
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    tx.update(gitConnections).set({ ...set, updatedAt: now }).where(eq(gitConnections.id, c.id)).run()
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'git.updated', target: c.id, details: { fields: Object.keys(body).filter((k) => (body as Record<string, unknown>)[k] !== undefined) } })
  })
  return view(connectionOf(deps.db, project.id))
}

/** Disconnects the repository; links already made stay on their reports. */
export function deleteGit(deps: AppDeps, project: ProjectRef, actorId: string) {
  const c = connectionOf(deps.db, project.id)
  deps.db.transaction((tx) => {
    tx.delete(gitConnections).where(eq(gitConnections.id, c.id)).run()
    recordAudit(tx, deps.clock.now(), { accountId: project.accountId, projectId: project.id, actorId, action: 'git.disconnected', target: c.id, details: { repo: c.repoUrl } })
  })
  return { message: 'Git repository disconnected' }
}

/** Searches the repository's issues (up to 20); 502 when the provider refuses. */
export async function searchRepoIssues(deps: AppDeps, projectId: string, q: string | undefined) {
  const { repo, token } = await repoOf(deps, connectionOf(deps.db, projectId))
  return asGateway(() => searchIssues(deps, repo, token, q))
}
