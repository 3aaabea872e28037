// SDK keys are kept in memory for a second (src/http/sdk-callers.ts): changes made through the API
// must still apply to the very next SDK request.
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { projects } from '../../src/modules/projects/projects.table'
import { billingApp, stripeEvent, stripeSignature } from '../billing/billing-helpers'
import { startFakeStripe, subscription, type FakeStripe } from '../billing/fake-stripe'
import { createProject, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRun } from '../helpers/sql-rows'

let t: TestApp
let fake: FakeStripe | undefined
afterEach(() => {
  t.close()
  fake?.stop()
  fake = undefined
})

const submit = (key: string, title = 'Door clips through the wall') => t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title, description: 'Walk into it.' } })

async function projectInUse() {
  const owner = await createUser(t)
  const project = await createProject(t, owner)
  expect((await submit(project.apiKey)).status).toBe(201)
  return { owner, project }
}

describe('SDK keys in use', () => {
  it('stop working as soon as the key is rotated; the new key works at once', async () => {
    t = createTestApp()
    const { owner, project } = await projectInUse()
    const rotated = await t.request('POST', `/api/projects/${project.slug}/rotate-key`, { token: owner.token })
    expect(rotated.status).toBe(200)
    expect((await submit(project.apiKey, 'Another bug')).status).toBe(401)
    expect((await submit(rotated.body.data.api_key, 'Another bug')).status).toBe(201)
  })

  it('follow project settings changed through the API at once: visibility and grouping', async () => {
    t = createTestApp()
    const { owner, project } = await projectInUse()
    await t.request('PATCH', `/api/projects/${project.slug}`, { token: owner.token, body: { bug_grouping: false } })
    // Grouping off: the same title files a second report instead of stacking.
    expect((await submit(project.apiKey)).status).toBe(201)
    await t.request('PATCH', `/api/projects/${project.slug}`, { token: owner.token, body: { is_public: false } })
    const res = await submit(project.apiKey, 'Another bug')
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('invalid API key')
  })

  it('stop working once the project is deleted', async () => {
    t = createTestApp()
    const { owner, project } = await projectInUse()
    expect((await t.request('DELETE', `/api/projects/${project.slug}`, { token: owner.token })).status).toBeLessThan(300)
    expect((await submit(project.apiKey, 'Another bug')).status).toBe(401)
  })

  it('follow a plan change from Stripe at once: telemetry opens on the upgrade', async () => {
    fake = startFakeStripe()
    t = billingApp(fake)
    const { owner, project } = await projectInUse()
    const track = () => t.request('POST', '/api/events/track', { apiKey: project.apiKey, body: { event_name: 'level_start' } })
    expect((await track()).status).toBe(403)
    await t.deps.db.write((q) => q.update(accounts).set({ stripeCustomerId: 'cus_1' }).where(eq(accounts.id, owner.account.id)))
    const body = JSON.stringify(stripeEvent('evt_up', 'customer.subscription.created', subscription({ price: 'price_pro' })))
    const now = Math.floor(t.clock.now().getTime() / 1000)
    const hook = await t.request('POST', '/api/billing/webhook', { body, headers: { 'content-type': 'application/json', 'stripe-signature': stripeSignature(body, now) } })
    expect(hook.status).toBe(200)
    expect((await track()).status).toBe(201)
  })

  it('follow a change made by another process (the CLI, a restore) within a second', async () => {
    t = createTestApp()
    const { project } = await projectInUse()
    // Written past this process's services, as another process would.
    await sqlRun(t, 'UPDATE projects SET is_public = 0 WHERE id = ?', project.id)
    await Bun.sleep(1_050)
    expect((await submit(project.apiKey, 'Another bug')).status).toBe(401)
    expect((await t.deps.db.read((q) => q.select({ isPublic: projects.isPublic }).from(projects).where(eq(projects.id, project.id)).limit(1)))[0]!.isPublic).toBe(false)
  })
})
