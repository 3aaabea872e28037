import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config/config'
import { accounts } from '../../src/modules/auth/accounts.table'
import { adminSetPlan } from '../../src/modules/billing/billing.cli'
import { FEATURE_TIERS, PLANS } from '../../src/modules/auth/plans'
import { createProject, createReportIn, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { WEBM } from '../sdk/sdk-helpers'

let t: TestApp
afterEach(() => t?.close())

const BILLING = { GLITCHBOX_STRIPE_SECRET_KEY: 'sk_test_123', GLITCHBOX_STRIPE_PRICE_PRO: 'price_pro', GLITCHBOX_STRIPE_PRICE_STUDIO: 'price_studio' }
const SET_PLAN = "the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)"
const CHECKOUT = 'upgrade the plan with POST /api/billing/create-checkout'

const signup = async (email = 'ada@example.com') => {
  const res = await t.request('POST', '/api/auth/signup', { body: { email, password: 'long enough password' } })
  expect(res.status).toBe(201)
  return res.body.data.token as string
}
const planOf = (token: string) => t.request('GET', '/api/account', { token }).then((r) => r.body.data.plan.key)
const setUsage = async (u: TestUser, values: Partial<typeof accounts.$inferInsert>) => await t.deps.db.write((q) => q.update(accounts).set(values).where(eq(accounts.id, u.account.id)))

describe('the default plan of new accounts', () => {
  it.each([
    ['no billing, no GLITCHBOX_DEFAULT_PLAN', {}, 'self_hosted'],
    ['billing configured', BILLING, 'free'],
    ['no billing, GLITCHBOX_DEFAULT_PLAN=free', { GLITCHBOX_DEFAULT_PLAN: 'free' }, 'free'],
    ['billing, GLITCHBOX_DEFAULT_PLAN=self_hosted', { ...BILLING, GLITCHBOX_DEFAULT_PLAN: 'self_hosted' }, 'self_hosted'],
    ['billing, GLITCHBOX_DEFAULT_PLAN=studio', { ...BILLING, GLITCHBOX_DEFAULT_PLAN: 'studio' }, 'studio'],
  ] as const)('%s: signup gets %s', async (_, env, plan) => {
    t = createTestApp({ env })
    expect(await planOf(await signup())).toBe(plan)
  })

  it('an unknown GLITCHBOX_DEFAULT_PLAN stops start-up naming the variable', () => {
    expect(() => loadConfig({ GLITCHBOX_DEFAULT_PLAN: 'gold' })).toThrow(ConfigError)
    expect(() => loadConfig({ GLITCHBOX_DEFAULT_PLAN: 'gold' })).toThrow(/GLITCHBOX_DEFAULT_PLAN/)
  })

  it('existing accounts keep their plan; admin set-plan moves them to self_hosted', async () => {
    t = createTestApp()
    const owner = await createUser(t, { email: 'boss@example.com', plan: 'free' })
    expect(await planOf(await signup('new@example.com'))).toBe('self_hosted')
    expect(await planOf(owner.token)).toBe('free')
    await adminSetPlan(t.deps, 'boss@example.com', 'self_hosted')
    const sub = (await t.request('GET', '/api/billing/subscription', { token: owner.token })).body.data
    expect(sub).toMatchObject({ plan: 'self_hosted', tier: 3, limits: { projects: null, reports: null, upload_bytes: null, seats: null } })
  })
})

describe('the self_hosted plan', () => {
  it('shows every feature and null limits in /api/account and /api/billing/subscription', async () => {
    t = createTestApp()
    const token = await signup()
    const allFeatures = Object.fromEntries(Object.keys(FEATURE_TIERS).map((f) => [f, true]))
    const account = (await t.request('GET', '/api/account', { token })).body.data
    expect(account.plan).toEqual({ key: 'self_hosted', name: 'Self-hosted', tier: 3 })
    expect(account.limits).toEqual({ projects: null, reports: null, upload_bytes: null, seats: null })
    expect(account.features).toEqual(allFeatures)
    const sub = (await t.request('GET', '/api/billing/subscription', { token })).body.data
    expect(sub).toMatchObject({ plan: 'self_hosted', limits: account.limits, features: allFeatures })
  })

  it('allows a 3rd project, the 1,001st report, uploads past every quota and a 4th seat', async () => {
    t = createTestApp()
    const owner = await createUser(t, { plan: 'self_hosted' })
    for (const name of ['One', 'Two', 'Three']) {
      expect((await t.request('POST', '/api/projects', { token: owner.token, body: { name } })).status).toBe(201)
    }
    const project = await createProject(t, owner)
    await setUsage(owner, { reportsCreated: 1_000_000, uploadBytesUsed: PLANS.studio.limits.uploadBytes })
    const submit = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'Report 1,000,001', description: 'still filed' } })
    expect(submit.status).toBe(201)
    const report = await createReportIn(t, project)
    const form = new FormData()
    form.append('file', new File(['a log line'], 'log.txt', { type: 'text/plain' }))
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`, { token: owner.token, body: form })).status).toBe(201)
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      expect((await t.request('POST', '/api/account/invites', { token: owner.token, body: { email } })).status).toBe(201)
    }
  })

  it('allows telemetry events, session capture and session replays', async () => {
    t = createTestApp()
    const owner = await createUser(t, { plan: 'self_hosted' })
    const project = await createProject(t, owner)
    expect((await t.request('POST', '/api/events/track', { apiKey: project.apiKey, body: { event_name: 'level_start' } })).status).toBe(201)
    expect((await t.request('PATCH', `/api/projects/${project.slug}`, { token: owner.token, body: { session_capture: true } })).status).toBe(200)
    expect((await t.request('GET', '/api/bugs/settings', { apiKey: project.apiKey })).body.data.session_capture).toBe(true)
    const report = await createReportIn(t, project)
    const form = new FormData()
    form.set('bug_report_id', report.id)
    form.set('file', new File([WEBM], 'replay.webm', { type: 'video/webm' }))
    expect((await t.request('POST', '/api/session-replays', { apiKey: project.apiKey, body: form })).status).toBe(201)
  })
})

describe('every plan-limit 403 says how to lift it', () => {
  /** Each limit or gate reached on a free account: the request and the start of its message with billing (naming the plan) and without (naming none). */
  const cases: [string, (u: TestUser) => Promise<{ status: number; body: any }>, string, string][] = [
    [
      'project limit',
      async (u) => {
        await createProject(t, u)
        await createProject(t, u)
        return t.request('POST', '/api/projects', { token: u.token, body: { name: 'Third' } })
      },
      'the Free plan allows 2 projects; to create more, ',
      'this account allows 2 projects; to create more, ',
    ],
    [
      'report quota',
      async (u) => {
        await setUsage(u, { reportsCreated: PLANS.free.limits.reports })
        return t.request('POST', '/api/bugs/submit', { apiKey: (await createProject(t, u)).apiKey, body: { title: 'One too many', description: 'lost?' } })
      },
      "the Free plan's limit of 1000 reports is reached; to file more, ",
      "this account's limit of 1000 reports is reached; to file more, ",
    ],
    [
      'upload quota',
      async (u) => {
        const project = await createProject(t, u)
        const report = await createReportIn(t, project)
        await setUsage(u, { uploadBytesUsed: PLANS.free.limits.uploadBytes })
        const form = new FormData()
        form.append('file', new File(['a log line'], 'log.txt', { type: 'text/plain' }))
        return t.request('POST', `/api/projects/${project.slug}/bugs/${report.reportNumber}/attachments`, { token: u.token, body: form })
      },
      "the Free plan's upload quota is reached; to upload more, ",
      "this account's upload quota is reached; to upload more, ",
    ],
    [
      'seats',
      async (u) => {
        for (const email of ['a@example.com', 'b@example.com']) await t.request('POST', '/api/account/invites', { token: u.token, body: { email } })
        return t.request('POST', '/api/account/invites', { token: u.token, body: { email: 'c@example.com' } })
      },
      "the Free plan's limit of 3 seats is reached (members and pending invitations); to invite more, ",
      "this account's limit of 3 seats is reached (members and pending invitations); to invite more, ",
    ],
    [
      'missing feature',
      async (u) => t.request('POST', '/api/events/track', { apiKey: (await createProject(t, u)).apiKey, body: { event_name: 'level_start' } }),
      'the Pro plan or higher is needed for telemetry events (this account is on Free); to use telemetry events, ',
      'this account does not have telemetry events; to use telemetry events, ',
    ],
  ]

  it.each(cases)('%s without billing: the admin set-plan command, and no plan named', async (_, reach, _billing, start) => {
    t = createTestApp()
    const res = await reach(await createUser(t, { plan: 'free' }))
    expect([res.status, res.body.error]).toEqual([403, start + SET_PLAN])
  })

  it.each(cases)('%s with billing: the plan and the upgrade route', async (_, reach, start) => {
    t = createTestApp({ env: BILLING })
    const res = await reach(await createUser(t, { plan: 'free' }))
    expect([res.status, res.body.error]).toEqual([403, start + CHECKOUT])
  })
})
