import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { MINUTE } from '../../src/lib/clock'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../webhooks/helpers'
import { startFakeGit } from './fake-git'

let fake: ReturnType<typeof startFakeGit>
let t: TestApp
let owner: TestUser
let project: TestProject

beforeEach(async () => {
  fake = startFakeGit()
  t = createTestApp({ env: { GLITCHBOX_PROVIDER_URL_GITHUB: fake.url, GLITCHBOX_PROVIDER_URL_GITLAB: `${fake.url}/api/v4`, GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => {
  fake.stop()
  t.close()
})

const git = (rest = '') => `/api/projects/${project.slug}/git${rest}`
const bugIssue = (n: number) => `/api/projects/${project.slug}/bugs/${n}/issue`
const github = { provider: 'github', repo_url: 'https://github.com/acme/game', access_token: 'gh-good-token' }
const selfHostedGitlab = () => ({ provider: 'gitlab', repo_url: `${fake.url}/games/studio/engine.git`, access_token: 'glpat-good-token' })
async function connect(body: Record<string, unknown> = github) {
  const res = await t.request('POST', git(), { token: owner.token, body })
  if (res.status !== 201) throw new Error(`connect failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data
}

describe('connect', () => {
  it.each([
    [{ repo_url: 'https://github.com/acme/game', access_token: 'x' }, 'provider: Invalid option: expected one of "github"|"gitlab"'],
    [{ ...github, provider: 'bitbucket' }, 'provider'],
    [{ ...github, repo_url: undefined }, 'repo_url is required'],
    [{ ...github, access_token: '' }, 'access_token'],
    [{ ...github, repo_url: 'not a url' }, 'repo_url must be a GitHub repository URL like https://github.com/owner/repo (not a URL)'],
    [{ ...github, repo_url: 'ftp://github.com/acme/game' }, 'repo_url must be a GitHub repository URL'],
    [{ ...github, repo_url: 'https://github.com/acme' }, 'repo_url must be a GitHub repository URL'],
    [{ ...github, repo_url: 'https://github.com/acme/game/tree/main' }, 'repo_url must be a GitHub repository URL'],
    [{ ...github, repo_url: 'https://user:pw@github.com/acme/game' }, 'repo_url must be a GitHub repository URL'],
    [{ provider: 'gitlab', repo_url: 'https://gitlab.com/solo', access_token: 'x' }, 'repo_url must be a GitLab repository URL'],
    [{ ...github, auto_create_issues: 'yes' }, 'auto_create_issues'],
  ])('%j → 400 naming the field', async (body, message) => {
    const res = await t.request('POST', git(), { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect(fake.hits).toHaveLength(0)
  })

  it('checks the token against GitHub, stores it encrypted and never returns it', async () => {
    const data = await connect({ ...github, repo_url: 'https://github.com/acme/game.git/' })
    expect(data).toMatchObject({ provider: 'github', repo_url: 'https://github.com/acme/game', repo_path: 'acme/game', auto_create_issues: false, token_hint: '…oken' })
    const hit = fake.hits[0]!
    expect(hit).toMatchObject({ method: 'GET', path: '/repos/acme/game' })
    expect(hit.headers.get('authorization')).toBe('Bearer gh-good-token')
    expect(hit.headers.get('accept')).toBe('application/vnd.github+json')
    expect(hit.headers.get('x-github-api-version')).toBe('2022-11-28')
    expect(hit.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    const got = await t.request('GET', git(), { token: owner.token })
    expect(got.body.data.repo_path).toBe('acme/game')
    expect(JSON.stringify(got.body)).not.toContain('gh-good-token')
    const [stored] = await t.deps.db.read((q) => rowsOf<{ token_enc: string }>(q, sql`select token_enc from git_connections`))
    expect(stored!.token_enc).toMatch(/^v1:/)
    expect(stored!.token_enc).not.toContain('gh-good-token')
    expect((await t.request('POST', git(), { token: owner.token, body: github })).status).toBe(409)
  })

  it.each([
    [{ ...github, access_token: 'gh-revoked' }, 'GitHub answered 401: Bad credentials'],
    [{ ...github, repo_url: 'https://github.com/acme/missing' }, 'GitHub answered 404: Not Found'],
    [{ ...github, repo_url: 'https://github.com/acme/no-issues' }, 'GitHub: issues are turned off for acme/no-issues'],
    [{ provider: 'gitlab', repo_url: 'SELF-HOSTED', access_token: 'glpat-bad' }, 'GitLab answered 401: 401 Unauthorized'],
  ])('answers 502 with what the provider said when it refuses %j', async (body, message) => {
    const res = await t.request('POST', git(), { token: owner.token, body: { ...body, ...(body.repo_url === 'SELF-HOSTED' && { repo_url: selfHostedGitlab().repo_url }) } })
    expect(res.status).toBe(502)
    expect(res.body.error).toBe(message)
    expect((await t.request('GET', git(), { token: owner.token })).status).toBe(404)
  })

  it('reaches gitlab.com through its API base with PRIVATE-TOKEN', async () => {
    const res = await t.request('POST', git(), { token: owner.token, body: { provider: 'gitlab', repo_url: 'https://gitlab.com/games/studio/engine/-/issues', access_token: 'glpat-good-token' } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ repo_url: 'https://gitlab.com/games/studio/engine', repo_path: 'games/studio/engine' })
    expect(fake.hits[0]!.path).toBe('/api/v4/projects/games%2Fstudio%2Fengine')
    expect(fake.hits[0]!.headers.get('private-token')).toBe('glpat-good-token')
  })

  it('reaches GitHub Enterprise through the repository host at /api/v3', async () => {
    const data = await connect({ ...github, repo_url: `${fake.url}/acme/game` })
    expect(data).toMatchObject({ repo_url: `${fake.url}/acme/game`, repo_path: 'acme/game' })
    expect(fake.hits[0]!.path).toBe('/api/v3/repos/acme/game')
    await t.request('GET', git('/issues?q=boot'), { token: owner.token })
    expect(fake.hits.at(-1)!.path).toBe('/api/v3/search/issues')
  })

  it('refuses a self-hosted host on a private address unless private targets are allowed (SSRF guard)', async () => {
    const guarded = createTestApp()
    try {
      const u = await createUser(guarded)
      const p = await createProject(guarded, u)
      const res = await guarded.request('POST', `/api/projects/${p.slug}/git`, { token: u.token, body: selfHostedGitlab() })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/^repo_url: url resolves to a private or reserved address/)
      expect(fake.hits).toHaveLength(0)
    } finally {
      guarded.close()
    }
  })

  it('updates auto_create_issues and the token (checked first), and disconnects', async () => {
    await connect()
    expect((await t.request('PATCH', git(), { token: owner.token, body: {} })).status).toBe(400)
    const refused = await t.request('PATCH', git(), { token: owner.token, body: { access_token: 'gh-revoked' } })
    expect(refused.status).toBe(502)
    expect(refused.body.error).toBe('GitHub answered 401: Bad credentials')
    expect((await t.request('GET', git(), { token: owner.token })).body.data.token_hint).toBe('…oken')
    const ok = await t.request('PATCH', git(), { token: owner.token, body: { auto_create_issues: true } })
    expect(ok.body.data.auto_create_issues).toBe(true)
    expect((await t.request('DELETE', git(), { token: owner.token })).body.data.message).toBe('Git repository disconnected')
    expect((await t.request('GET', git(), { token: owner.token })).status).toBe(404)
  })

  it('lets members read and search; changing needs project.integrations, filing bugs.edit', async () => {
    await connect()
    const report = await createReportIn(t, project)
    const member = await addMember(t, owner, { 'bugs.edit': false })
    expect((await t.request('GET', git(), { token: member.token })).status).toBe(200)
    expect((await t.request('GET', git('/issues?q=crash'), { token: member.token })).status).toBe(200)
    expect((await t.request('GET', bugIssue(report.reportNumber), { token: member.token })).status).toBe(200)
    expect((await t.request('PATCH', git(), { token: member.token, body: { auto_create_issues: true } })).status).toBe(403)
    expect((await t.request('DELETE', git(), { token: member.token })).status).toBe(403)
    expect((await t.request('POST', bugIssue(report.reportNumber), { token: member.token })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('GET', git(), { token: stranger.token })).status).toBe(404)
  })
})

describe('issues', () => {
  it('searches GitHub issues of the repository', async () => {
    await connect()
    const res = await t.request('GET', git('/issues?q=crash'), { token: owner.token })
    expect(res.body.data).toEqual([{ issue_number: 5, issue_title: 'Crash on boot', issue_url: 'https://github.com/acme/game/issues/5', state: 'open' }])
    const hit = fake.hits.at(-1)!
    expect(hit.path).toBe('/search/issues')
    expect(hit.query.get('q')).toBe('repo:acme/game is:issue crash')
  })

  it('files a report as a GitHub issue with its fields and a link, once', async () => {
    await connect()
    const report = await createReportIn(t, project, { title: 'Boss stuck in wall', description: 'The boss clips into the wall', stepsToReproduce: '1. Enter arena', platform: 'Windows', priority: 'critical' })
    const n = report.reportNumber
    expect((await t.request('GET', bugIssue(n), { token: owner.token })).body.data).toEqual({ repository: { provider: 'github', repo_url: 'https://github.com/acme/game', repo_path: 'acme/game' }, issue: null })
    const res = await t.request('POST', bugIssue(n), { token: owner.token })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ provider: 'github', issue_number: 42, issue_url: 'https://github.com/acme/game/issues/42', issue_title: 'Boss stuck in wall', created_by_glitchbox: true })
    const sent = fake.hits.at(-1)!
    expect(sent).toMatchObject({ method: 'POST', path: '/repos/acme/game/issues' })
    expect(sent.json.title).toBe('Boss stuck in wall')
    expect(sent.json.body).toContain('The boss clips into the wall')
    expect(sent.json.body).toContain('| Priority | critical |')
    expect(sent.json.body).toContain('### Steps to reproduce\n1. Enter arena')
    expect(sent.json.body).toContain(`(http://glitchbox.test/projects/${project.slug}/reports/${n})`)
    const again = await t.request('POST', bugIssue(n), { token: owner.token })
    expect(again.status).toBe(200)
    expect(again.body.data.issue_number).toBe(42)
    expect(fake.hits.filter((h) => h.method === 'POST')).toHaveLength(1)
    expect((await t.request('GET', bugIssue(n), { token: owner.token })).body.data.issue).toMatchObject({ issue_number: 42 })
    const other = await t.request('POST', bugIssue(n), { token: owner.token, body: { issue_number: 7 } })
    expect(other.status).toBe(409)
    expect(other.body.error).toContain('already linked to issue #42')
  })

  it('links an existing issue, looking up its URL and title when not given', async () => {
    await connect()
    const a = await createReportIn(t, project)
    const b = await createReportIn(t, project)
    const looked = await t.request('POST', bugIssue(a.reportNumber), { token: owner.token, body: { issue_number: 7 } })
    expect(looked.status).toBe(201)
    expect(looked.body.data).toMatchObject({ issue_number: 7, issue_url: 'https://github.com/acme/game/issues/7', issue_title: 'Issue 7', created_by_glitchbox: false })
    expect(fake.hits.at(-1)!.path).toBe('/repos/acme/game/issues/7')
    const before = fake.hits.length
    const given = await t.request('POST', bugIssue(b.reportNumber), { token: owner.token, body: { issue_number: 8, issue_url: 'https://github.com/acme/game/issues/8', issue_title: 'Known crash' } })
    expect(given.body.data).toMatchObject({ issue_number: 8, issue_title: 'Known crash' })
    expect(fake.hits.length).toBe(before)
    expect((await t.request('POST', bugIssue(b.reportNumber), { token: owner.token, body: { issue_number: 0 } })).body.error).toContain('issue_number')
    expect((await t.request('DELETE', bugIssue(b.reportNumber), { token: owner.token })).body.data.message).toBe('Issue unlinked')
    expect((await t.request('GET', bugIssue(b.reportNumber), { token: owner.token })).body.data.issue).toBeNull()
    expect((await t.request('POST', bugIssue(9999), { token: owner.token })).status).toBe(404)
  })

  it("says on a report's issue read whether a repository is connected, answering 200 either way (a report page asks it instead of GET /git, which answers 404 without one)", async () => {
    const report = await createReportIn(t, project)
    const read = await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })
    expect(read.status).toBe(200)
    expect(read.body.data).toEqual({ issue: null, repository: null })
    expect((await t.request('GET', git(), { token: owner.token })).status).toBe(404)
    await connect(selfHostedGitlab())
    expect((await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })).body.data.repository).toMatchObject({ provider: 'gitlab', repo_url: `${fake.url}/games/studio/engine` })
  })

  it('answers 502 with the provider message when filing is refused, and 404 without a repository', async () => {
    const report = await createReportIn(t, project)
    // Reading is no error without a repository (the report page asks on every visit): both are null.
    const read = await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })
    expect(read.status).toBe(200)
    expect(read.body.data).toEqual({ repository: null, issue: null })
    expect((await t.request('POST', bugIssue(report.reportNumber), { token: owner.token })).status).toBe(404)
    await connect()
    fake.state.failCreates = 1
    const res = await t.request('POST', bugIssue(report.reportNumber), { token: owner.token })
    expect(res.status).toBe(502)
    expect(res.body.error).toBe('GitHub answered 500: Server Error')
    expect((await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })).body.data.issue).toBeNull()
  })

  it('works against a self-hosted GitLab: search and file', async () => {
    const data = await connect(selfHostedGitlab())
    expect(data.repo_url).toBe(`${fake.url}/games/studio/engine`)
    const found = await t.request('GET', git('/issues?q=boot'), { token: owner.token })
    expect(found.body.data).toEqual([{ issue_number: 3, issue_title: 'Crash when boot', issue_url: `${fake.url}/games/studio/engine/-/issues/3`, state: 'opened' }])
    expect(fake.hits.at(-1)!.query.get('search')).toBe('boot')
    const report = await createReportIn(t, project, { title: 'Audio pops' })
    const filed = await t.request('POST', bugIssue(report.reportNumber), { token: owner.token })
    expect(filed.status).toBe(201)
    expect(filed.body.data).toMatchObject({ provider: 'gitlab', issue_number: 42, issue_url: `${fake.url}/games/studio/engine/-/issues/42` })
    const sent = fake.hits.at(-1)!
    expect(sent.path).toBe('/api/v4/projects/games%2Fstudio%2Fengine/issues')
    expect(sent.json).toMatchObject({ title: 'Audio pops', description: expect.stringContaining('/reports/') })
  })

  it('files every new report when auto_create_issues is on, retrying a refusal after 1 minute', async () => {
    await connect({ ...github, auto_create_issues: true })
    fake.state.failCreates = 1
    const report = await createReportIn(t, project, { title: 'Auto filed' })
    await t.runner.drain()
    expect(fake.hits.filter((h) => h.method === 'POST')).toHaveLength(1)
    expect((await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })).body.data.issue).toBeNull()
    // The refusal shows on the connection until an attempt succeeds.
    const failed = (await t.request('GET', git(), { token: owner.token })).body.data
    expect(failed.last_auto_issue_error).toMatchObject({ report_number: report.reportNumber, at: t.clock.now().toISOString() })
    expect(failed.last_auto_issue_error.message).toMatch(/GitHub/)
    t.clock.advance(MINUTE)
    await t.runner.drain()
    expect(fake.hits.filter((h) => h.method === 'POST')).toHaveLength(2)
    expect((await t.request('GET', bugIssue(report.reportNumber), { token: owner.token })).body.data.issue).toMatchObject({ issue_number: 42, issue_title: 'Auto filed', created_by_glitchbox: true })
    expect((await t.request('GET', git(), { token: owner.token })).body.data.last_auto_issue_error).toBeNull()

    await t.request('PATCH', git(), { token: owner.token, body: { auto_create_issues: false } })
    await createReportIn(t, project)
    await t.runner.drain()
    expect(fake.hits.filter((h) => h.method === 'POST')).toHaveLength(2)
  })
})
