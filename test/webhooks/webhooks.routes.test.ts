import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, createWebhook } from './helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
let project: TestProject
const base = () => `/api/projects/${project.slug}/webhooks/generic`

beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

describe('POST /projects/:slug/webhooks/generic', () => {
  const cases: [string, Record<string, unknown>, number, string | RegExp | null][] = [
    ['url only', { url: 'https://hooks.example.com/in' }, 201, null],
    ['all fields', { url: 'http://127.0.0.1:9/x', name: 'CI', event_types: 'bug_created, comment_added', secret: 's3cret' }, 201, null],
    ['event types as an array', { url: 'https://hooks.example.com/in', event_types: ['bug_updated'] }, 201, null],
    ['missing url', { name: 'x' }, 400, /url is required/],
    ['not a URL', { url: 'not a url' }, 400, /valid http\(s\) URL/],
    ['ftp scheme', { url: 'ftp://example.com/x' }, 400, /http or https/],
    ['javascript scheme', { url: 'javascript:alert(1)' }, 400, /http or https/],
    ['url over 2000 characters', { url: `https://example.com/${'a'.repeat(2000)}` }, 400, /url/],
    ['unknown event type', { url: 'https://example.com', event_types: 'bug_created,bug_deleted' }, 400, /unknown event type bug_deleted/],
    ['empty event types', { url: 'https://example.com', event_types: ' , ' }, 400, /at least one/],
    ['name over 100 characters', { url: 'https://example.com', name: 'n'.repeat(101) }, 400, /name/],
    ['secret over 200 characters', { url: 'https://example.com', secret: 's'.repeat(201) }, 400, /secret/],
  ]
  it.each(cases)('%s → %i', async (_label, body, status, error) => {
    const res = await t.request('POST', base(), { token: owner.token, body })
    expect(res.status).toBe(status)
    if (status === 201) {
      expect(res.body).toEqual({ ok: true, data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } })
    } else {
      expect(res.body.ok).toBe(false)
      expect(res.body.error).toMatch(error!)
    }
  })

  it('stores defaults and canonical event types, shown by the list with the secret', async () => {
    const a = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/a' })
    const b = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/b', name: 'Discord relay', event_types: 'comment_added,bug_created,bug_created', secret: 'topsecret' })
    const res = await t.request('GET', base(), { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: a, name: 'Webhook', url: 'https://hooks.example.com/a', secret: null, secret_hint: null, event_types: 'bug_created,bug_updated,comment_added', created_at: expect.any(String) },
      { id: b, name: 'Discord relay', url: 'https://hooks.example.com/b', secret: 'topsecret', secret_hint: '…cret', event_types: 'bug_created,comment_added', created_at: expect.any(String) },
    ])
  })

  it('records an audit entry without the secret', async () => {
    const id = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/a', secret: 'hush' })
    const rows = (await sqlRows(t, 'select action, target, details from audit_log where project_id = ?', project.id)) as { action: string; target: string; details: string }[]
    expect(rows).toEqual([{ action: 'webhook.created', target: id, details: expect.not.stringContaining('hush') }])
  })
})

describe('permissions', () => {
  it('answers 404 to non-members on every route and 401 without a token', async () => {
    const id = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/a' })
    const stranger = await createUser(t)
    const routes: [string, string][] = [
      ['GET', base()],
      ['POST', base()],
      ['DELETE', `${base()}/${id}`],
      ['POST', `${base()}/${id}/test`],
      ['GET', `${base()}/${id}/deliveries`],
    ]
    for (const [method, path] of routes) {
      const res = await t.request(method, path, { token: stranger.token, body: method === 'POST' ? { url: 'https://example.com' } : undefined })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await t.request(method, path, { body: method === 'POST' ? { url: 'https://example.com' } : undefined })).status).toBe(401)
    }
  })

  it('lets members without webhooks.manage list webhooks, but not read deliveries or write (403)', async () => {
    const id = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/a', secret: 'x' })
    const member = await addMember(t, owner, { 'webhooks.manage': false })
    expect((await t.request('GET', base(), { token: member.token })).status).toBe(200)
    for (const [method, path] of [
      ['GET', `${base()}/${id}/deliveries`],
      ['POST', base()],
      ['DELETE', `${base()}/${id}`],
      ['POST', `${base()}/${id}/test`],
    ] as const) {
      const res = await t.request(method, path, { token: member.token, body: method === 'POST' ? { url: 'https://example.com' } : undefined })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.error).toMatch(/webhooks\.manage/)
    }
    const allowed = await addMember(t, owner, { 'webhooks.manage': true })
    expect((await t.request('POST', base(), { token: allowed.token, body: { url: 'https://example.com' } })).status).toBe(201)
  })
})

describe('DELETE /webhooks/generic/:webhookId', () => {
  it('deletes the webhook and its deliveries; a second delete is 404', async () => {
    const id = await createWebhook(t, owner, project, { url: 'https://hooks.example.com/a' })
    const res = await t.request('DELETE', `${base()}/${id}`, { token: owner.token })
    expect(res).toMatchObject({ status: 200, body: { ok: true, data: { message: 'Webhook deleted' } } })
    expect((await t.request('GET', base(), { token: owner.token })).body.data).toEqual([])
    expect((await t.request('DELETE', `${base()}/${id}`, { token: owner.token })).status).toBe(404)
    expect((await t.request('GET', `${base()}/${id}/deliveries`, { token: owner.token })).status).toBe(404)
  })

  it('does not reach a webhook of another project through this project', async () => {
    const other = await createProject(t, owner)
    const id = await createWebhook(t, owner, other, { url: 'https://hooks.example.com/a' })
    expect((await t.request('DELETE', `${base()}/${id}`, { token: owner.token })).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${other.slug}/webhooks/generic`, { token: owner.token })).body.data).toHaveLength(1)
  })

  it('is served under /api/v1 too', async () => {
    const res = await t.request('GET', `/api/v1/projects/${project.slug}/webhooks/generic`, { token: owner.token })
    expect(res.status).toBe(200)
  })
})
