import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { hmacSha256Hex, newId } from '../../src/lib/ids'
import { webhooks } from '../../src/modules/webhooks/webhooks.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { createWebhook, webhookJobs } from './helpers'
import { closedPortUrl, startReceiver } from './receiver'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
let project: TestProject
const stops: (() => void)[] = []
const test = (id: string) => t.request('POST', `/api/projects/${project.slug}/webhooks/generic/${id}/test`, { token: owner.token })

async function setup(env: Record<string, string>) {
  t = createTestApp({ env })
  owner = await createUser(t)
  project = await createProject(t, owner)
}
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
  t.close()
})

describe('POST /webhooks/generic/:webhookId/test', () => {
  beforeEach(() => setup({ GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' }))

  const deliveries = async (id: string) => (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`, { token: owner.token })).body.data

  it('sends a signed test event now, and records nothing: the deliveries list stays empty (spec 4.6)', async () => {
    const r = startReceiver()
    stops.push(r.stop)
    const id = await createWebhook(t, owner, project, { url: r.url, secret: 'abc' })
    const res = await test(id)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { status_code: 200, message: 'Test event delivered', signed: true } })
    expect(r.received).toHaveLength(1)
    const [got] = r.received
    expect(got!.json).toEqual({ event: 'test', timestamp: t.clock.now().toISOString(), data: { message: expect.any(String), project_slug: project.slug, webhook_id: id } })
    expect(got!.headers.get('x-glitchbox-event')).toBe('test')
    expect(got!.headers.get('x-glitchbox-signature')).toBe(`sha256=${hmacSha256Hex('abc', got!.body)}`)
    expect(got!.headers.get('x-glitchbox-delivery')).toMatch(/^[0-9a-f-]{36}$/)
    expect(await webhookJobs(t)).toEqual([])
    expect(await deliveries(id)).toEqual([])
    expect((await sqlRows(t, 'select count(*) as n from webhook_deliveries'))[0]).toEqual({ n: 0 })
    expect((await sqlRows(t, 'select count(*) as n from webhook_attempts'))[0]).toEqual({ n: 0 })
  })

  it('passes on the receiver status, unsigned without a secret, and neither retries nor records it', async () => {
    const r = startReceiver(() => new Response('nope', { status: 500 }))
    stops.push(r.stop)
    const id = await createWebhook(t, owner, project, { url: r.url })
    const res = await test(id)
    expect(res.body).toEqual({ ok: true, data: { status_code: 500, message: 'The receiver answered with status 500', signed: false } })
    expect(r.received[0]!.headers.has('x-glitchbox-signature')).toBe(false)
    await t.runner.drain()
    t.clock.advance(3 * 60 * 60 * 1000)
    await t.runner.drain()
    expect(r.received).toHaveLength(1)
    expect(await deliveries(id)).toEqual([])
  })

  it('answers 502 when nothing listens at the URL, and records nothing', async () => {
    const id = await createWebhook(t, owner, project, { url: closedPortUrl() })
    const res = await test(id)
    expect(res.status).toBe(502)
    expect(res.body).toEqual({ ok: false, error: expect.stringMatching(/could not be reached/) })
    expect(await deliveries(id)).toEqual([])
  })

  it('answers 404 for an unknown webhook', async () => {
    expect((await test(newId())).status).toBe(404)
  })
})

describe('delivery-time SSRF check', () => {
  beforeEach(() => setup({}))

  // A URL accepted at creation whose host later points inside (DNS rebinding): stored directly here.
  async function insertInternalWebhook(url: string) {
    const id = newId()
    await t.deps.db.write((q) => q.insert(webhooks).values({ id, projectId: project.id, name: 'W', url, secret: null, eventTypes: 'bug_created', createdBy: owner.user.id, createdAt: t.clock.now() }))
    return id
  }

  it('refuses the test event with 502 and sends nothing', async () => {
    const r = startReceiver()
    stops.push(r.stop)
    const res = await test(await insertInternalWebhook(r.url))
    expect(res.status).toBe(502)
    expect(res.body.error).toMatch(/private or reserved address \(127\.0\.0\.1\), which is not allowed; to allow private targets, set GLITCHBOX_ALLOW_PRIVATE_TARGETS=true and restart Glitchbox\)$/)
    expect(r.received).toHaveLength(0)
  })

  it('records a refused delivery attempt and sends nothing', async () => {
    const r = startReceiver()
    stops.push(r.stop)
    const id = await insertInternalWebhook(r.url)
    await createReportIn(t, project)
    await t.runner.drain()
    expect(r.received).toHaveLength(0)
    const [d] = (await t.request('GET', `/api/projects/${project.slug}/webhooks/generic/${id}/deliveries`, { token: owner.token })).body.data
    expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_status_code: null, last_error: expect.stringMatching(/private or reserved address/) })
  })
})
