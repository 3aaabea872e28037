import { sql } from 'drizzle-orm'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { MINUTE } from '../../src/lib/clock'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../webhooks/helpers'
import { startFakeChat } from './fake-chat'

let fake: ReturnType<typeof startFakeChat>
let t: TestApp
let owner: TestUser
let project: TestProject

const env = () => ({ GLITCHBOX_PROVIDER_URL_DISCORD: fake.base, GLITCHBOX_PROVIDER_URL_SLACK_WEBHOOKS: fake.base, GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' })
beforeEach(async () => {
  fake = startFakeChat()
  t = createTestApp({ env: env() })
  owner = await createUser(t)
  project = await createProject(t, owner, { name: 'Space Game' })
})
afterEach(() => {
  fake.stop()
  t.close()
})

const path = (provider: string, rest = '') => `/api/projects/${project.slug}/webhooks/${provider}${rest}`
async function create(provider: 'discord' | 'slack', body: Record<string, unknown> = {}) {
  const res = await t.request('POST', path(provider), { token: owner.token, body: { webhook_url: provider === 'discord' ? fake.discordUrl() : fake.slackUrl(), channel_name: '#bugs', ...body } })
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.data.id as string
}

describe('create and list', () => {
  it.each([
    ['discord', {}, 'webhook_url is required'],
    ['discord', { webhook_url: 'not a url' }, 'webhook_url must be a Discord webhook URL'],
    ['discord', { webhook_url: 'https://example.com/api/webhooks/1/abc' }, 'webhook_url must be a Discord webhook URL'],
    ['discord', { webhook_url: 'https://discord.com/api/webhooks/1/abc' }, 'webhook_url must be a Discord webhook URL'],
    ['discord', { webhook_url: 'SLACK' }, 'webhook_url must be a Discord webhook URL'],
    ['slack', { webhook_url: 'DISCORD' }, 'webhook_url must be a Slack webhook URL'],
    ['slack', { webhook_url: 'SLACK', event_types: ['bug_deleted'] }, 'event_types'],
    ['slack', { webhook_url: 'SLACK', event_types: 'bug_created,nope' }, 'event_types must name one or more of bug_created, bug_updated, comment_added (unknown: nope)'],
    ['slack', { webhook_url: 'SLACK', channel_name: 'x'.repeat(101) }, 'channel_name'],
    ['slack', { webhook_url: 'SLACK', is_active: 'no' }, 'is_active'],
  ])('%s %j → 400 naming the field', async (provider, body, message) => {
    const b = { ...body } as Record<string, unknown>
    if (b.webhook_url === 'SLACK') b.webhook_url = fake.slackUrl()
    if (b.webhook_url === 'DISCORD') b.webhook_url = fake.discordUrl()
    const res = await t.request('POST', path(provider), { token: owner.token, body: b })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
  })

  it('accepts only discord.com and hooks.slack.com without an override', async () => {
    const plain = createTestApp()
    try {
      const u = await createUser(plain)
      const p = await createProject(plain, u)
      const res = await plain.request('POST', `/api/projects/${p.slug}/webhooks/slack`, { token: u.token, body: { webhook_url: 'https://hooks.slack.com.evil.test/services/T1/B1/x' } })
      expect(res.status).toBe(400)
      expect(res.body.error).toContain('webhook_url must be a Slack webhook URL (https://hooks.slack.com/services/…)')
    } finally {
      plain.close()
    }
  })

  it('refuses a webhook host that resolves to a private address (SSRF guard)', async () => {
    const guarded = createTestApp({ env: { GLITCHBOX_PROVIDER_URL_DISCORD: fake.base } })
    try {
      const u = await createUser(guarded)
      const p = await createProject(guarded, u)
      const res = await guarded.request('POST', `/api/projects/${p.slug}/webhooks/discord`, { token: u.token, body: { webhook_url: fake.discordUrl() } })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/^webhook_url: url resolves to a private or reserved address/)
    } finally {
      guarded.close()
    }
  })

  it.skipIf(!onSqlite)("stores the webhook URL encrypted and never returns it (SQLite: the data directory's secrets.key)", async () => {
    const res = await t.request('POST', path('discord'), { token: owner.token, body: { webhook_url: fake.discordUrl('secret-token-wxyz'), channel_name: '#bugs', event_types: 'bug_created' } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ provider: 'discord', channel_name: '#bugs', event_types: ['bug_created'], is_active: true, webhook_url_hint: expect.stringMatching(/…wxyz$/) })
    const list = await t.request('GET', path('discord'), { token: owner.token })
    expect(list.body.data).toHaveLength(1)
    expect(JSON.stringify(list.body)).not.toContain('secret-token')
    expect((await t.request('GET', path('slack'), { token: owner.token })).body.data).toEqual([])
    const [stored] = await t.deps.db.read((q) => rowsOf<{ webhook_url_enc: string }>(q, sql`select webhook_url_enc from chat_channels`))
    expect(stored!.webhook_url_enc).toMatch(/^v1:/)
    expect(stored!.webhook_url_enc).not.toContain('secret-token')
    expect(readFileSync(join(t.dir, 'secrets.key'), 'utf8').length).toBeGreaterThan(40)
  })

  it('updates, pauses and deletes; the other provider path does not find it', async () => {
    const id = await create('slack')
    const patched = await t.request('PATCH', path('slack', `/${id}`), { token: owner.token, body: { channel_name: '#qa', event_types: ['comment_added'] } })
    expect(patched.body.data).toMatchObject({ channel_name: '#qa', event_types: ['comment_added'] })
    expect((await t.request('PATCH', path('slack', `/${id}`), { token: owner.token, body: {} })).status).toBe(400)
    expect((await t.request('PATCH', path('slack', `/${id}`), { token: owner.token, body: { webhook_url: 'https://example.com/x' } })).status).toBe(400)
    expect((await t.request('PATCH', path('discord', `/${id}`), { token: owner.token, body: { is_active: false } })).status).toBe(404)
    expect((await t.request('DELETE', path('slack', `/${id}`), { token: owner.token })).body.data.message).toBe('Slack channel deleted')
    expect((await t.request('DELETE', path('slack', `/${id}`), { token: owner.token })).status).toBe(404)
  })

  it('lets members list and only project.integrations change', async () => {
    const id = await create('discord')
    const member = await addMember(t, owner)
    expect((await t.request('GET', path('discord'), { token: member.token })).status).toBe(200)
    expect((await t.request('POST', path('discord'), { token: member.token, body: { webhook_url: fake.discordUrl() } })).status).toBe(403)
    expect((await t.request('POST', path('discord', `/${id}/test`), { token: member.token })).status).toBe(403)
    expect((await t.request('DELETE', path('discord', `/${id}`), { token: member.token })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('GET', path('discord'), { token: stranger.token })).status).toBe(404)
  })
})

describe('test route', () => {
  it('posts a Discord embed to the webhook', async () => {
    const id = await create('discord')
    const res = await t.request('POST', path('discord', `/${id}/test`), { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ status_code: 204, message: 'Test message posted to Discord', delivery_id: expect.any(String) })
    const hit = fake.hits.at(-1)!
    expect(hit.path).toBe('/api/webhooks/1234567890/tok-abc_123')
    expect(hit.headers.get('user-agent')).toBe('Glitchbox/0.0.0-test')
    expect(hit.headers.get('content-type')).toBe('application/json')
    expect(hit.json).toMatchObject({ allowed_mentions: { parse: [] }, embeds: [{ title: 'Test message from Glitchbox for Space Game' }] })
  })

  it('answers 502 with what Discord and Slack said when they refuse', async () => {
    const d = await create('discord', { webhook_url: fake.discordUrl('gone') })
    const dres = await t.request('POST', path('discord', `/${d}/test`), { token: owner.token })
    expect(dres.status).toBe(502)
    expect(dres.body.error).toBe('Discord answered 404: Unknown Webhook')
    const s = await create('slack', { webhook_url: fake.slackUrl('revoked') })
    const sres = await t.request('POST', path('slack', `/${s}/test`), { token: owner.token })
    expect(sres.status).toBe(502)
    expect(sres.body.error).toBe('Slack answered 403: invalid_token')
  })

  it('records each test, posted or refused, in the deliveries marked as a test, and does not retry it', async () => {
    const id = await create('discord')
    const ok = await t.request('POST', path('discord', `/${id}/test`), { token: owner.token })
    const gone = await create('discord', { webhook_url: fake.discordUrl('gone') })
    expect((await t.request('POST', path('discord', `/${gone}/test`), { token: owner.token })).status).toBe(502)
    await t.runner.drain()
    const list = async (channel: string) => (await t.request('GET', path('discord', `/${channel}/deliveries`), { token: owner.token })).body.data
    expect(await list(id)).toEqual([expect.objectContaining({ id: ok.body.data.delivery_id, event: 'test', is_test: true, status: 'succeeded', attempts: 1, last_status_code: 204 })])
    expect(await list(gone)).toEqual([
      expect.objectContaining({ event: 'test', is_test: true, status: 'failed', attempts: 1, last_status_code: 404, last_error: 'Discord answered 404: Unknown Webhook' }),
    ])
    expect(fake.hits.filter((h) => h.path.includes('gone'))).toHaveLength(1)
  })
})

describe('report events', () => {
  it('posts new reports, updates and public comments with a link to the report; never internal comments', async () => {
    await create('discord')
    await create('slack', { event_types: ['comment_added'] })
    const report = await createReportIn(t, project, { title: 'Falls through the floor', priority: 'high' })
    await t.runner.drain()
    const link = `http://glitchbox.test/projects/${project.slug}/reports/${report.reportNumber}`
    expect(fake.hits).toHaveLength(1)
    expect(fake.hits[0]!.json.embeds[0]).toMatchObject({ title: `New bug in Space Game #${report.reportNumber}: Falls through the floor`, url: link })
    expect(fake.hits[0]!.json.embeds[0].fields).toContainEqual({ name: 'Priority', value: 'high', inline: true })

    await t.request('PATCH', `/api/projects/${project.slug}/bugs/${report.reportNumber}`, { token: owner.token, body: { status: 'in_progress' } })
    await t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/comments`, { token: owner.token, body: { body: 'secret triage note', is_internal: true } })
    await t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/comments`, { token: owner.token, body: { body: 'Fixed in 1.2' } })
    await t.runner.drain()
    const discord = fake.hits.filter((h) => h.path.startsWith('/api/webhooks/'))
    const slack = fake.hits.filter((h) => h.path.startsWith('/services/'))
    // Jobs run side by side, so the posts may arrive in any order.
    expect(discord.map((h) => h.json.embeds[0].title).sort()).toEqual([
      `Bug updated in Space Game #${report.reportNumber}: Falls through the floor`,
      `New bug in Space Game #${report.reportNumber}: Falls through the floor`,
      `New comment on Space Game #${report.reportNumber}: Falls through the floor`,
    ])
    expect(slack).toHaveLength(1)
    expect(JSON.stringify(fake.hits)).not.toContain('secret triage note')
    expect(slack[0]!.json.blocks.at(-1)).toEqual({ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: `Open report #${report.reportNumber}` }, url: link }] })
    expect(JSON.stringify(slack[0]!.json.blocks)).toContain('Fixed in 1.2')
  })

  it('retries a refused post after 1 and 5 minutes, recording each answer', async () => {
    const id = await create('discord')
    fake.state.failNext = 2
    await createReportIn(t, project)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(1)
    t.clock.advance(MINUTE - 1)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(1)
    t.clock.advance(1)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(2)
    const pending = await t.request('GET', path('discord', `/${id}/deliveries`), { token: owner.token })
    expect(pending.body.data[0]).toMatchObject({ status: 'pending', attempts: 2, last_status_code: 500, last_error: 'Discord answered 500: Internal Server Error' })
    t.clock.advance(5 * MINUTE)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(3)
    const list = await t.request('GET', path('discord', `/${id}/deliveries`), { token: owner.token })
    expect(list.body.data).toEqual([expect.objectContaining({ event: 'bug_created', status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null })])
  })

  it('holds queued retries while paused, posts nothing new, and releases them on resume', async () => {
    const id = await create('discord')
    fake.state.failNext = 1
    await createReportIn(t, project)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(1)
    await t.request('PATCH', path('discord', `/${id}`), { token: owner.token, body: { is_active: false } })
    await createReportIn(t, project)
    t.clock.advance(30 * MINUTE)
    await t.runner.drain()
    expect(fake.hits).toHaveLength(1)
    await t.request('PATCH', path('discord', `/${id}`), { token: owner.token, body: { is_active: true } })
    await t.runner.drain()
    expect(fake.hits).toHaveLength(2)
    expect(await t.deps.db.read((q) => rowsOf(q, sql`select status, attempts from chat_channel_deliveries`))).toEqual([{ status: 'succeeded', attempts: 2 }])
  })
})
