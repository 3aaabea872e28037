import { providerUrl } from '../../config/config'
import type { Config } from '../../config/config'
import { badRequest } from '../../http/errors'
import { isWebUrl } from '../../net/web-url'
import type { GitProvider } from './git.schemas'

/** The public hosts and their API bases; `GLITCHBOX_PROVIDER_URL_GITHUB` / `_GITLAB` move the API (tests). */
const PUBLIC = {
  github: { host: 'github.com', api: 'https://api.github.com', selfHostedApi: '/api/v3', example: 'https://github.com/owner/repo' },
  gitlab: { host: 'gitlab.com', api: 'https://gitlab.com/api/v4', selfHostedApi: '/api/v4', example: 'https://gitlab.com/group/project' },
} as const

/** A repository as we call it: its web URL, its path on the host and the API base to use. */
export interface Repo {
  provider: GitProvider
  webUrl: string
  /** `owner/name` on GitHub, `group/…/name` on GitLab. */
  path: string
  apiBase: string
  /** GitHub Enterprise or a self-hosted GitLab: the URL came from a user, so every call goes through the SSRF guard. */
  selfHosted: boolean
}

/**
 * Reads a repository's web URL: `https://github.com/owner/repo` (or a GitHub Enterprise host, API at
 * `/api/v3`) and `https://gitlab.com/group/sub/project` (or a self-hosted GitLab, API at `/api/v4`);
 * a trailing `.git` or `/`, and GitLab's `/-/…` pages, are dropped. 400 naming repo_url otherwise.
 */
export function parseRepoUrl(config: Pick<Config, 'providerUrls'>, provider: GitProvider, raw: string): Repo {
  const p = PUBLIC[provider]
  const wrong = (why: string) => badRequest(`repo_url must be a ${provider === 'github' ? 'GitHub' : 'GitLab'} repository URL like ${p.example} (${why})`)
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw wrong('not a URL')
  }
  if (!isWebUrl(url.href)) throw wrong('http or https only')
  if (url.username || url.password || url.search || url.hash) throw wrong('no credentials, query or fragment')
  const segments = url.pathname
    .split('/-/')[0]!
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean)
  const valid = segments.every((s) => /^[\w.-]+$/.test(s) && s !== '.' && s !== '..')
  if (!valid || (provider === 'github' ? segments.length !== 2 : segments.length < 2)) throw wrong(provider === 'github' ? 'owner and repository name' : 'group and project path')
  const path = segments.join('/')
  const host = url.host.toLowerCase()
  const selfHosted = host !== p.host && host !== `www.${p.host}`
  const origin = selfHosted ? url.origin : `https://${p.host}`
  return { provider, webUrl: `${origin}/${path}`, path, apiBase: selfHosted ? `${url.origin}${p.selfHostedApi}` : providerUrl(config, provider, p.api), selfHosted }
}
