import type { AppDeps } from '../../app-deps'
import { providerLink } from '../../net/web-url'
import { type Answer, callProvider, expectOk } from '../integrations/providers/provider-http'
import { ProviderError } from '../integrations/providers/provider.types'
import type { Repo } from './git.repo'

/** An issue in the repository, as the routes show it. */
export interface RepoIssue {
  issue_number: number
  issue_url: string
  issue_title: string
  state: string
}

type Deps = Pick<AppDeps, 'config' | 'clock' | 'logger'>
const SEARCH_LIMIT = 20

const nameOf = (repo: Repo) => (repo.provider === 'github' ? 'GitHub' : 'GitLab')

/** One call to the repository's API with the provider's auth header; ProviderError with its words unless it answered below 300. */
async function call(deps: Deps, repo: Repo, token: string, method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
  const headers: Record<string, string> =
    repo.provider === 'github' ? { Authorization: `Bearer ${token}`, Accept: 'application/vnd.github+json', 'X-GitHub-Api-Version': '2022-11-28' } : { 'PRIVATE-TOKEN': token }
  const name = nameOf(repo)
  const answer = await callProvider({ deps, secret: token, config: {}, signal }, name, `${repo.apiBase}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }, { userUrl: repo.selfHosted })
  return expectOk(name, answer)
}

const project = (repo: Repo) => `/projects/${encodeURIComponent(repo.path)}`

// A self-hosted host answers whatever it likes: a link that is not http(s) is dropped (providerLink).
const fromGithub = (i: any): RepoIssue => ({ issue_number: Number(i.number), issue_url: providerLink(i.html_url), issue_title: String(i.title ?? ''), state: String(i.state ?? '') })
const fromGitlab = (i: any): RepoIssue => ({ issue_number: Number(i.iid), issue_url: providerLink(i.web_url), issue_title: String(i.title ?? ''), state: String(i.state ?? '') })
const parse = (repo: Repo, i: unknown) => (repo.provider === 'github' ? fromGithub(i) : fromGitlab(i))

/** Checks that the token reaches the repository and that its issues are on; ProviderError otherwise. */
export async function checkRepo(deps: Deps, repo: Repo, token: string): Promise<void> {
  const a = await call(deps, repo, token, 'GET', repo.provider === 'github' ? `/repos/${repo.path}` : project(repo))
  // GitLab's `issues_enabled` gives way to `issues_access_level` in newer versions; either may say no.
  const off = repo.provider === 'github' ? a.json?.has_issues === false : a.json?.issues_enabled === false || a.json?.issues_access_level === 'disabled'
  if (off) throw new ProviderError(`${nameOf(repo)}: issues are turned off for ${repo.path}`)
}

/** Up to 20 issues matching `q` (title and body), or the most recently updated ones without it. */
export async function searchIssues(deps: Deps, repo: Repo, token: string, q: string | undefined): Promise<RepoIssue[]> {
  if (repo.provider === 'github') {
    const query = new URLSearchParams({ q: `repo:${repo.path} is:issue ${q ?? ''}`.trim(), per_page: String(SEARCH_LIMIT), sort: 'updated' })
    const a = await call(deps, repo, token, 'GET', `/search/issues?${query}`)
    return (Array.isArray(a.json?.items) ? a.json.items : []).map(fromGithub)
  }
  const query = new URLSearchParams({ per_page: String(SEARCH_LIMIT), order_by: 'updated_at', ...(q ? { search: q } : {}) })
  const a = await call(deps, repo, token, 'GET', `${project(repo)}/issues?${query}`)
  return (Array.isArray(a.json) ? a.json : []).map(fromGitlab)
}

/** One issue by its number (GitLab: its iid). */
export async function getIssue(deps: Deps, repo: Repo, token: string, number: number): Promise<RepoIssue> {
  const a = await call(deps, repo, token, 'GET', repo.provider === 'github' ? `/repos/${repo.path}/issues/${number}` : `${project(repo)}/issues/${number}`)
  return parse(repo, a.json)
}

/** Opens an issue with a Markdown body. */
export async function createIssue(deps: Deps, repo: Repo, token: string, issue: { title: string; body: string }, signal?: AbortSignal): Promise<RepoIssue> {
  const a =
    repo.provider === 'github'
      ? await call(deps, repo, token, 'POST', `/repos/${repo.path}/issues`, { title: issue.title, body: issue.body }, signal)
      : await call(deps, repo, token, 'POST', `${project(repo)}/issues`, { title: issue.title, description: issue.body }, signal)
  return parse(repo, a.json)
}
