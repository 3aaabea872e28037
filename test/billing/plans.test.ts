import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { accounts } from '../../src/modules/auth/accounts.table'
import { adminSetPlan } from '../../src/modules/billing/billing.cli'
import { FEATURE_TIERS, featuresOf, PLAN_KEYS, PlanLimitError, PLANS, requireFeature, type Feature, type PlanKey } from '../../src/modules/auth/plans'
import { createProject, createReportIn, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const setUsage = async (u: TestUser, values: Partial<typeof accounts.$inferInsert>) => await t.deps.db.write((q) => q.update(accounts).set(values).where(eq(accounts.id, u.account.id)))

describe('plans', () => {
  it('are free, pro and studio at tiers 1 to 3 with growing limits, and self_hosted at tier 3 without limits', () => {
    expect(PLAN_KEYS.map((k) => [k, PLANS[k].tier])).toEqual([
      ['free', 1],
      ['pro', 2],
      ['studio', 3],
      ['self_hosted', 3],
    ])
    expect(PLANS.self_hosted.limits).toEqual({ projects: null, reports: null, uploadBytes: null, seats: null })
    for (const limit of ['projects', 'reports', 'uploadBytes', 'seats'] as const) {
      expect(PLANS.free.limits[limit]).toBeLessThan(PLANS.pro.limits[limit])
      expect(PLANS.pro.limits[limit]).toBeLessThan(PLANS.studio.limits[limit])
    }
  })

  const gates: [Feature, PlanKey][] = [
    ['events', 'pro'],
    ['crash_groups', 'pro'],
    ['triage', 'pro'],
    ['churn_risk', 'pro'],
    ['log_stack', 'pro'],
    ['widget_themes', 'pro'],
    ['jira', 'pro'],
    ['session_capture', 'studio'],
    ['session_replays', 'studio'],
  ]
  it('gate exactly the features the spec names', () => {
    expect(Object.keys(FEATURE_TIERS).sort()).toEqual(gates.map(([f]) => f).sort())
  })

  it.each(gates)('%s needs %s: 403 naming the plan below it with billing (no plan without), passes from it up', (feature, lowest) => {
    for (const plan of PLAN_KEYS) {
      const allowed = PLANS[plan].tier >= PLANS[lowest].tier
      expect(featuresOf(plan)[feature]).toBe(allowed)
      if (allowed) expect(() => requireFeature(plan, feature)).not.toThrow()
      else {
        const err = (() => {
          try {
            requireFeature(plan, feature)
          } catch (e) {
            return e as PlanLimitError
          }
        })()!
        expect(err.messageFor({ stripeSecretKey: 'sk_test_x' })).toContain(`the ${PLANS[lowest].name} plan or higher is needed for`)
        // Without billing the team sees no plan: only what is missing and who can turn it on.
        expect(err.messageFor({ stripeSecretKey: undefined })).toMatch(/^this account does not have [A-Za-z ]+; to use/)
      }
    }
  })
})

describe('plan gates and limits on routes', () => {
  it('the report quota answers 403 (naming no plan without billing), and deleted reports keep counting', async () => {
    const owner = await createUser(t, { plan: 'free' })
    const project = await createProject(t, owner)
    const report = await createReportIn(t, project)
    const del = await t.request('DELETE', `/api/projects/${project.slug}/bugs/${report.reportNumber}`, { token: owner.token })
    expect(del.status).toBe(200)
    expect((await t.request('GET', '/api/account', { token: owner.token })).body.data.usage.reports).toBe(1)

    await setUsage(owner, { reportsCreated: PLANS.free.limits.reports })
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs`, { token: owner.token, body: { title: 'Crash', description: 'On load' } })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe("this account's limit of 1000 reports is reached; to file more, the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)")
  })

  it('the upload quota answers 403', async () => {
    const owner = await createUser(t, { plan: 'free' })
    const project = await createProject(t, owner)
    const report = await createReportIn(t, project)
    await setUsage(owner, { uploadBytesUsed: PLANS.free.limits.uploadBytes - 10 })
    const form = new FormData()
    form.append('file', new File(['a log line that is longer than ten bytes'], 'log.txt', { type: 'text/plain' }))
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`, { token: owner.token, body: form })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe("this account's upload quota is reached; to upload more, the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)")
  })

  it('the project limit answers 403 naming the limit', async () => {
    const owner = await createUser(t, { plan: 'free' })
    for (let i = 0; i < PLANS.free.limits.projects; i++) await createProject(t, owner)
    const res = await t.request('POST', '/api/projects', { token: owner.token, body: { name: 'One too many' } })
    expect(res.status).toBe(403)
    expect(res.body.error).toContain('this account allows 2 projects')
  })

  it('widget themes are a tier 2 feature', async () => {
    const free = await createUser(t, { plan: 'free' })
    const pro = await createUser(t, { plan: 'pro' })
    const body = { theme: { primary_color: '#112233' } }
    const denied = await t.request('PUT', `/api/projects/${(await createProject(t, free)).slug}/widget-settings`, { token: free.token, body })
    expect([denied.status, denied.body.error]).toEqual([403, "this account does not have widget themes; to use widget themes, the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)"])
    expect((await t.request('PUT', `/api/projects/${(await createProject(t, pro)).slug}/widget-settings`, { token: pro.token, body })).status).not.toBe(403)
  })

  it('session capture is a tier 3 feature', async () => {
    const pro = await createUser(t, { plan: 'pro' })
    const studio = await createUser(t, { plan: 'studio' })
    const denied = await t.request('PATCH', `/api/projects/${(await createProject(t, pro)).slug}`, { token: pro.token, body: { session_capture: true } })
    expect([denied.status, denied.body.error]).toEqual([403, "this account does not have session capture; to use session capture, the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)"])
    expect((await t.request('PATCH', `/api/projects/${(await createProject(t, studio)).slug}`, { token: studio.token, body: { session_capture: true } })).status).toBe(200)
  })
})

describe('operators without billing', () => {
  it('GLITCHBOX_DEFAULT_PLAN sets the plan of new accounts', async () => {
    t.close()
    t = createTestApp({ env: { GLITCHBOX_DEFAULT_PLAN: 'studio' } })
    const signup = await t.request('POST', '/api/auth/signup', { body: { email: 'op@example.com', password: 'long enough password' } })
    expect(signup.status).toBe(201)
    const account = (await t.request('GET', '/api/account', { token: signup.body.data.token })).body.data
    expect(account.plan).toEqual({ key: 'studio', name: 'Studio', tier: 3 })
  })

  it('admin set-plan sets the plan of the account the user owns', async () => {
    const owner = await createUser(t, { email: 'boss@example.com', plan: 'free' })
    await adminSetPlan(t.deps, 'BOSS@example.com', 'pro')
    expect((await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data).toMatchObject({ plan: 'pro', tier: 2 })
    const [audit] = await t.deps.db.read((q) => rowsOf<{ actor_id: null; details: string }>(q, sql`SELECT actor_id, details FROM audit_log WHERE action = 'billing.plan_changed'`))
    expect(audit!.actor_id).toBeNull()
    expect(JSON.parse(audit!.details)).toEqual({ from: 'free', to: 'pro', by: 'operator' })
  })

  it('admin set-plan refuses an unknown email or plan with a clear error', async () => {
    await createUser(t, { email: 'boss@example.com' })
    await expect(adminSetPlan(t.deps, 'nobody@example.com', 'pro')).rejects.toThrow('no user with email nobody@example.com')
    await expect(adminSetPlan(t.deps, 'boss@example.com', 'gold')).rejects.toThrow('unknown plan "gold" (expected free, pro, studio, self_hosted)')
  })
})
