import { sql } from 'drizzle-orm'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { createUser } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { addMember, connect, integrationsTestbed } from './helpers'

const bed = integrationsTestbed()
const PD_KEY = 'R0UT1NGKEY0123456789abcdefABCDEF'
const nothing = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false]))

describe('GET /api/integrations/providers', () => {
  it('lists every provider key of the contract with events, plan, credential and link', async () => {
    const res = await bed.t.request('GET', '/api/integrations/providers', { token: bed.owner.token })
    expect(res.status).toBe(200)
    const keys = res.body.data.map((p: { key: string }) => p.key)
    expect(keys).toEqual(['slack', 'teams', 'pagerduty', 'opsgenie', 'linear', 'jira', 'clickup', 'asana', 'trello', 'airtable', 'monday', 'notion', 'sentry', 'google_play', 'app_store'])
    const byKey = Object.fromEntries(res.body.data.map((p: { key: string }) => [p.key, p]))
    expect(byKey.slack).toMatchObject({ name: 'Slack', kind: 'chat', events: ['bug_created', 'bug_updated', 'comment_added', 'digest'], default_events: ['bug_created', 'bug_updated'], available: true })
    expect(byKey.slack.plan).toBeUndefined()
    expect(byKey.jira.plan).toBe('pro')
    expect(byKey.google_play.events).toEqual(['reviews', 'review_bugs'])
    for (const p of res.body.data) expect(p.credential.url).toMatch(/^https:\/\//)
  })
  it('needs a session', async () => {
    expect((await bed.t.request('GET', '/api/integrations/providers')).status).toBe(401)
  })
})

describe('POST /projects/{slug}/integrations/{provider}', () => {
  const cases: [string, string, Record<string, unknown>, number, RegExp][] = [
    ['no secret', 'pagerduty', { config: { region: 'us' } }, 400, /secret is required/],
    ['unknown provider', 'myspace', { secret: 'x' }, 404, /unknown provider myspace/],
    ['bad region', 'pagerduty', { secret: PD_KEY, config: { region: 'mars' } }, 400, /config\.region must be us or eu/],
    ['event the provider does not take', 'pagerduty', { secret: PD_KEY, event_types: ['digest'] }, 400, /event_types: PagerDuty does not take digest/],
    ['unknown event type', 'slack', { secret: 'https://hooks.slack.com/services/T/B/x', event_types: ['bug_deleted'] }, 400, /event_types/],
    ['slack secret not a URL', 'slack', { secret: 'xoxb-123' }, 400, /secret must be the incoming webhook URL/],
    ['teams on another host', 'teams', { secret: 'https://example.webhook.office.com/webhookb2/x' }, 400, /workflow webhook URL/],
    ['sentry project not org:id', 'sentry', { secret: 'sntrys_0123456789abcdefghij', config: { project: 'my-game' } }, 400, /config\.project must be <org-slug>:<project-id>/],
    ['sentry without project', 'sentry', { secret: 'sntrys_0123456789abcdefghij' }, 400, /config\.project is required/],
    ['bad min_priority', 'pagerduty', { secret: PD_KEY, min_priority: 'urgent' }, 400, /min_priority/],
  ]
  it.each(cases)('%s', async (_name, provider, body, status, error) => {
    const res = await bed.t.request('POST', `${bed.base}/${provider}`, { token: bed.owner.token, body })
    expect(res.status).toBe(status)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toMatch(error)
    expect((await bed.t.request('GET', bed.base, { token: bed.owner.token })).body.data).toEqual([])
  })

  it('answers 400 for each provider the providers route lists as not available yet', async () => {
    const providers = (await bed.t.request('GET', '/api/integrations/providers', { token: bed.owner.token })).body.data as { key: string; name: string; available: boolean }[]
    for (const p of providers.filter((x) => !x.available)) {
      const res = await bed.t.request('POST', `${bed.base}/${p.key}`, { token: bed.owner.token, body: { secret: 'some-credential' } })
      expect([p.key, res.status, res.body.error]).toEqual([p.key, 400, `the ${p.name} integration is not available on this server yet`])
    }
  })

  it('refuses a chat URL on a private address unless the server allows private targets', async () => {
    const { createTestApp } = await import('../helpers/test-app')
    const { createProject } = await import('../helpers/fixtures')
    const strict = createTestApp()
    try {
      const owner = await createUser(strict, { plan: 'self_hosted' })
      const project = await createProject(strict, owner)
      const res = await strict.request('POST', `/api/projects/${project.slug}/integrations/slack`, { token: owner.token, body: { secret: 'http://127.0.0.1:9/hook' } })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/private or reserved address \(127\.0\.0\.1\), which is not allowed; to allow private targets, set GLITCHBOX_ALLOW_PRIVATE_TARGETS=true and restart Glitchbox$/)
    } finally {
      strict.close()
    }
  })

  it('gates jira behind the Pro plan', async () => {
    const free = await createUser(bed.t, { plan: 'free' })
    const { createProject } = await import('../helpers/fixtures')
    const project = await createProject(bed.t, free)
    const res = await bed.t.request('POST', `/api/projects/${project.slug}/integrations/jira`, { token: free.token, body: { secret: 'token', config: { site: 'studio.atlassian.net' } } })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/this account does not have the Jira integration/)
  })

  it('creates a connection with defaults; the list shows a hint and never the credential', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const slackId = await connect(bed, 'slack', { secret: `${bed.fake.url}/hook/secret-path-a1b2`, name: 'Bugs channel', event_types: ['bug_created', 'digest'], min_priority: 'medium' })
    const res = await bed.t.request('GET', bed.base, { token: bed.owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject([
      { id, provider: 'pagerduty', provider_name: 'PagerDuty', kind: 'alerting', name: 'PagerDuty', secret_hint: '…CDEF', event_types: ['bug_created', 'bug_updated'], min_priority: 'high', config: { region: 'us' }, is_active: true },
      { id: slackId, provider: 'slack', name: 'Bugs channel', secret_hint: '…a1b2', event_types: ['bug_created', 'digest'], min_priority: 'medium', config: {} },
    ])
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(PD_KEY)
    expect(text).not.toContain('secret-path')
    const filtered = await bed.t.request('GET', `${bed.base}?provider=slack`, { token: bed.owner.token })
    expect(filtered.body.data.map((c: { id: string }) => c.id)).toEqual([slackId])
  })

  it.skipIf(!onSqlite)("stores the credential encrypted under secrets.key, created with mode 0600 (SQLite: the data directory's key file)", async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const [row] = await bed.t.deps.db.read((q) => rowsOf<{ secret_enc: string; secret_hint: string }>(q, sql`select secret_enc, secret_hint from integrations where id = ${id}`))
    expect(row.secret_enc).not.toContain(PD_KEY)
    expect(row.secret_enc).toMatch(/^v1:/)
    const rows = await bed.t.deps.db.read((q) => rowsOf<{ text: string }>(q, sql`select secret_enc || secret_hint || config as text from integrations`))
    const dump = { all_text: rows.map((r) => r.text).join('') }
    expect(dump.all_text).not.toContain(PD_KEY)
    const mode = statSync(join(bed.t.dir, 'secrets.key')).mode & 0o777
    expect(mode).toBe(0o600)
  })
})

describe('permissions', () => {
  it('lets any member list, and only project.integrations manage', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const member = await addMember(bed.t, bed.owner, nothing)
    expect((await bed.t.request('GET', bed.base, { token: member.token })).status).toBe(200)
    const denied: [string, string, unknown][] = [
      ['POST', `${bed.base}/pagerduty`, { secret: PD_KEY }],
      ['PATCH', `${bed.base}/pagerduty/${id}`, { name: 'x' }],
      ['DELETE', `${bed.base}/pagerduty/${id}`, undefined],
      ['POST', `${bed.base}/pagerduty/${id}/test`, undefined],
      ['GET', `${bed.base}/pagerduty/${id}/deliveries`, undefined],
      ['POST', `${bed.base}/sentry/targets`, { secret: 'x' }],
    ]
    for (const [method, path, body] of denied) {
      const res = await bed.t.request(method, path, { token: member.token, body })
      expect([method, path, res.status, res.body.error]).toEqual([method, path, 403, 'you need the project.integrations permission'])
    }
    const stranger = await createUser(bed.t)
    expect((await bed.t.request('GET', bed.base, { token: stranger.token })).status).toBe(404)
  })
})

describe('PATCH and DELETE', () => {
  it('updates fields, keeps the credential unless replaced, and records audit entries', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const path = `${bed.base}/pagerduty/${id}`
    const cases: [Record<string, unknown>, number, string | RegExp][] = [
      [{}, 400, /no valid fields to update/],
      [{ config: { region: 'apac' } }, 400, /config\.region must be us or eu/],
      [{ event_types: ['comment_added'] }, 400, /PagerDuty does not take comment_added/],
      [{ name: 'Pager', min_priority: 'critical', config: { region: 'eu' } }, 200, 'Integration updated'],
      [{ secret: 'NEWKEY0123456789abcdefABCDEFwxyz' }, 200, 'Integration updated'],
      [{ is_active: false }, 200, 'Integration paused'],
      [{ is_active: true }, 200, 'Integration resumed'],
    ]
    for (const [body, status, message] of cases) {
      const res = await bed.t.request('PATCH', path, { token: bed.owner.token, body })
      expect(res.status).toBe(status)
      if (status === 200) expect(res.body.data.message).toBe(message)
      else expect(res.body.error).toMatch(message)
    }
    const [c] = (await bed.t.request('GET', bed.base, { token: bed.owner.token })).body.data
    expect(c).toMatchObject({ name: 'Pager', min_priority: 'critical', config: { region: 'eu' }, secret_hint: '…wxyz', is_active: true })
    expect((await bed.t.request('PATCH', `${bed.base}/opsgenie/${id}`, { token: bed.owner.token, body: { name: 'x' } })).status).toBe(404)

    expect((await bed.t.request('DELETE', path, { token: bed.owner.token })).body.data).toEqual({ message: 'Integration deleted' })
    expect((await bed.t.request('DELETE', path, { token: bed.owner.token })).status).toBe(404)
    const audit = await bed.t.deps.db.read((q) => rowsOf<{ action: string; details: string }>(q, sql`select action, details from audit_log where action like 'integration.%' order by seq`))
    expect(audit.map((a) => a.action)).toEqual(['integration.created', ...Array(4).fill('integration.updated'), 'integration.deleted'])
    expect(audit.map((a) => a.details).join('')).not.toContain('NEWKEY')
  })

  it('answers 400 to /sync for providers that are not stores, and to targets of providers without any', async () => {
    const id = await connect(bed, 'pagerduty', { secret: PD_KEY })
    const sync = await bed.t.request('POST', `${bed.base}/pagerduty/${id}/sync`, { token: bed.owner.token })
    expect(sync.status).toBe(400)
    expect(sync.body.error).toMatch(/sync is for store providers/)
    const targets = await bed.t.request('POST', `${bed.base}/pagerduty/targets`, { token: bed.owner.token, body: { id } })
    expect(targets.status).toBe(400)
    expect(targets.body.error).toMatch(/PagerDuty has no targets/)
  })
})
