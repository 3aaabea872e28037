// Issue 21 item 5: a member with every permission removed read every generic webhook's URL and signing
// secret (`GET …/webhooks/generic`), enough to forge signed deliveries. Secrets are read only with the
// permission that manages them: this sweep calls every GET operation of the OpenAPI document as members
// without webhooks.manage, project.settings and project.integrations (one with no permission at all,
// one with the member role's defaults) and asserts that no stored secret, URL query string, URL
// credential, token or draft shows in any answer. Holders of each permission still read what they manage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newId } from '../../src/lib/ids'
import { chatChannels } from '../../src/modules/chat-channels/chat-channels.table'
import { urlHint } from '../../src/modules/chat-channels/chat-channels.providers'
import { gitConnections } from '../../src/modules/git/git.table'
import { encryptSecret, secretHint } from '../../src/modules/integrations/credentials.crypto'
import { integrations } from '../../src/modules/integrations/integrations.table'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { startFakeGit } from '../git/fake-git'
import { addTeammate } from '../projects/team-helpers'
import { operationsOf } from '../fuzz/world'

/** Every secret-like value seeded below; none may reach a member without the matching permission. */
const SECRETS: Record<string, string> = {
  signing: 'whsec-SIGNINGSECRET-0001',
  query: 'QUERYSECRET-0001',
  userinfo: 'USERINFOSECRET-0001',
  chat: 'CHATTOKENSECRET-0001',
  // The fake GitHub's token: a member with bugs.view searches the repository's issues through it.
  git: 'gh-good-token',
  trelloKey: 'deadbeef0123456789abcdefdeadbeef',
  trelloToken: 'TRELLOTOKENSECRET-0001',
  draft: 'DRAFTSECRET unreleased boss rush',
}
const HOOK_URL = `http://hooks:${SECRETS.userinfo}@127.0.0.1:9/in/studio?token=${SECRETS.query}&v=2#frag`
const nothing = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false]))

const fakeGit = startFakeGit()
const t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true', GLITCHBOX_PROVIDER_URL_GITHUB: fakeGit.url } })
let owner: TestUser
let project: TestProject
let params: Record<string, string>
afterAll(() => {
  t.close()
  fakeGit.stop()
})

beforeAll(async () => {
  owner = await createUser(t, { plan: 'studio' })
  project = await createProject(t, owner)
  const report = await createReportIn(t, project, { title: 'Crash at the gate', playerId: 'player-1', gameVersion: '1.2.0' })
  const base = `/api/projects/${project.slug}`
  const hook = await t.request('POST', `${base}/webhooks/generic`, { token: owner.token, body: { url: HOOK_URL, secret: SECRETS.signing } })
  expect(hook.status).toBe(201)
  expect((await t.request('POST', `${base}/changelog`, { token: owner.token, body: { title: SECRETS.draft, body: `${SECRETS.draft} notes` } })).status).toBe(201)
  // The invitation link's token is mailed and answered once; only its hash is kept.
  const invite = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'invitee@example.com', role: 'member' } })
  expect(invite.status).toBe(201)
  SECRETS.invitation = invite.body.data.token
  expect(SECRETS.invitation).toMatch(/^\S{20,}$/)
  const now = t.clock.now()
  const channelId = newId()
  const chatUrl = `https://discord.com/api/webhooks/123/${SECRETS.chat}`
  await t.deps.db.write(async (q) => q.insert(chatChannels).values({ id: channelId, projectId: project.id, provider: 'discord', webhookUrlEnc: await encryptSecret(t.deps.secrets, chatUrl, channelId), webhookUrlHint: urlHint(chatUrl), channelName: 'bugs', eventTypes: ['bug_created'], createdAt: now, updatedAt: now }))
  const gitId = newId()
  await t.deps.db.write(async (q) => q.insert(gitConnections).values({ id: gitId, projectId: project.id, provider: 'github', repoUrl: 'https://github.com/acme/game', repoPath: 'acme/game', tokenEnc: await encryptSecret(t.deps.secrets, SECRETS.git, gitId), tokenHint: secretHint(SECRETS.git), createdAt: now, updatedAt: now }))
  const integrationId = newId()
  await t.deps.db.write(async (q) =>
    q
    .insert(integrations)
    .values({ id: integrationId, projectId: project.id, provider: 'trello', name: 'Trello', secretEnc: await encryptSecret(t.deps.secrets, SECRETS.trelloToken, integrationId), secretHint: secretHint(SECRETS.trelloToken), eventTypes: ['bug_created'], minPriority: 'low', config: { api_key: SECRETS.trelloKey, list_id: 'a'.repeat(24) }, createdAt: now, updatedAt: now })
  )
  params = { slug: project.slug, number: String(report.reportNumber), provider: 'trello', integrationId, channelId, webhookId: hook.body.data.id, playerId: 'player-1', bugId: report.id, id: report.id }
})

/** Which secrets appear in `text`. */
const found = (text: string) => Object.entries(SECRETS).filter(([, v]) => text.includes(v)).map(([k]) => k)

describe.each([
  ['with every permission removed', nothing],
  ["with the member role's defaults", {}],
])('a member %s', (_, overrides) => {
  it('reads no stored secret, URL query, URL credential, token or draft through any GET route', async () => {
    const mate = await addTeammate(t, owner, { overrides })
    const { operations } = await operationsOf(t)
    const gets = operations.filter((o) => o.method === 'GET' && o.path.startsWith('/api/'))
    expect(gets.length).toBeGreaterThan(100)
    const leaks: string[] = []
    for (const o of gets) {
      const path = o.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x')).replace('/webhooks/slack/', '/webhooks/discord/')
      const res = await t.request('GET', path, { token: mate.token })
      expect(res.status, `GET ${path}`).toBeLessThan(500)
      const hits = found(JSON.stringify(res.body))
      if (hits.length) leaks.push(`GET ${o.path} ${res.status}: ${hits.join(', ')}`)
    }
    expect(leaks).toEqual([])
  })

  it('still sees which webhooks exist: name, host and path, and a hint of the secret', async () => {
    const mate = await addTeammate(t, owner, { overrides })
    const res = await t.request('GET', `/api/projects/${project.slug}/webhooks/generic`, { token: mate.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([{ id: params.webhookId, name: 'Webhook', url: 'http://127.0.0.1:9/in/studio', secret_hint: '…0001', event_types: 'bug_created,bug_updated,comment_added', created_at: expect.any(String) }])
  })
})

describe('members who hold the permission', () => {
  it('webhooks.manage reads each webhook with its stored URL and secret (spec 4.6)', async () => {
    const manager = await addTeammate(t, owner, { overrides: { ...nothing, 'webhooks.manage': true } })
    for (const who of [owner, manager]) {
      const [hook] = (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic`, { token: who.token })).body.data
      expect(hook).toMatchObject({ url: new URL(HOOK_URL).href, secret: SECRETS.signing, secret_hint: '…0001' })
    }
  })

  it('project.settings reads changelog drafts; others get 403', async () => {
    const settings = await addTeammate(t, owner, { overrides: { ...nothing, 'project.settings': true } })
    const member = await addTeammate(t, owner)
    const path = `/api/projects/${project.slug}/changelog/all`
    const drafts = await t.request('GET', path, { token: settings.token })
    expect(drafts.status).toBe(200)
    expect(drafts.body.data.map((e: { title: string }) => e.title)).toEqual([SECRETS.draft])
    const refused = await t.request('GET', path, { token: member.token })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe('you need the project.settings permission')
  })

  it('project.integrations reads the config of a connection; others get its secret-like fields as hints', async () => {
    const integrator = await addTeammate(t, owner, { overrides: { ...nothing, 'project.integrations': true } })
    const member = await addTeammate(t, owner)
    const list = (token: string) => t.request('GET', `/api/projects/${project.slug}/integrations`, { token })
    expect((await list(integrator.token)).body.data[0].config).toEqual({ api_key: SECRETS.trelloKey, list_id: 'a'.repeat(24) })
    expect((await list(member.token)).body.data[0].config).toEqual({ api_key: '…beef', list_id: 'a'.repeat(24) })
  })
})

describe('GET /api/permissions/available', () => {
  it('says which permission reads which secret', async () => {
    const { groups } = (await t.request('GET', '/api/permissions/available', { token: owner.token })).body.data
    const described = Object.fromEntries(groups.flatMap((g: { permissions: { key: string; description: string }[] }) => g.permissions.map((p) => [p.key, p.description])))
    expect(described['webhooks.manage']).toMatch(/signing secrets/)
    expect(described['project.settings']).toMatch(/changelog and read its drafts/)
    expect(described['project.integrations']).toMatch(/credential-like settings/)
  })
})
