import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { users } from '../../src/modules/auth/auth.table'
import { projects } from '../../src/modules/projects/projects.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from './team-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('GET /api/projects/:slug/setup-status', () => {
  it('moves from nothing to SDK-connected as reports and sessions arrive', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    const status = async () => (await t.request('GET', `/api/projects/${p.slug}/setup-status`, { token: owner.token })).body.data
    expect(await status()).toEqual({
      sdk_connected: false,
      has_reports: false,
      reports_from_sdk: false,
      has_sessions: false,
      has_sentry_events: false,
      has_sentry_sessions: false,
      first_report_at: null,
      first_session_at: null,
      public_url: { url: 'http://glitchbox.test', set: true },
      sdk_budget: { per_minute: 30, refused_last_hour: 0 },
    })

    await createReportIn(t, p, { createdBy: owner.user.id })
    expect(await status()).toMatchObject({ sdk_connected: false, has_reports: true, reports_from_sdk: false, first_report_at: t.clock.now().toISOString() })

    await createReportIn(t, p, { createdBy: null })
    expect(await status()).toMatchObject({ sdk_connected: true, reports_from_sdk: true })
  })

  it('counts a first session as connected', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    await t.deps.db.write((q) => q.update(projects).set({ firstSessionAt: t.clock.now() }).where(eq(projects.id, p.id)))
    const s = (await t.request('GET', `/api/projects/${p.slug}/setup-status`, { token: owner.token })).body.data
    expect(s).toMatchObject({ sdk_connected: true, has_sessions: true, first_session_at: t.clock.now().toISOString(), has_reports: false })
  })

  it('answers 404 to non-members', async () => {
    const p = await createProject(t, await createUser(t))
    const stranger = await createUser(t)
    expect((await t.request('GET', `/api/projects/${p.slug}/setup-status`, { token: stranger.token })).status).toBe(404)
  })
})

describe('POST /api/projects/:slug/send-test-report', () => {
  it('files a sample report as the caller', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    const res = await t.request('POST', `/api/projects/${p.slug}/send-test-report`, { token: owner.token })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ report_number: 1 })
    const row = (await t.deps.db.read((q) => q.select().from(reports).where(eq(reports.id, res.body.data.id)).limit(1)))[0]!
    expect(row).toMatchObject({ title: 'Test report from Glitchbox', source: 'user', createdBy: owner.user.id, projectId: p.id })
    const again = await t.request('POST', `/api/projects/${p.slug}/send-test-report`, { token: owner.token })
    expect(again.body.data.report_number).toBe(2)
  })

  it('needs bugs.create (403) and membership (404)', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    const member = await addTeammate(t, owner, { overrides: { 'bugs.create': false } })
    const stranger = await createUser(t)
    expect((await t.request('POST', `/api/projects/${p.slug}/send-test-report`, { token: member.token })).status).toBe(403)
    expect((await t.request('POST', `/api/projects/${p.slug}/send-test-report`, { token: stranger.token })).status).toBe(404)
    expect((await t.deps.db.read((q) => q.select().from(reports)))).toHaveLength(0)
  })
})

describe('GET /api/projects/:slug/activity', () => {
  it('lists activity newest first with actor names and report numbers, filterable by action, 50 a page', async () => {
    const owner = await createUser(t, { name: 'Olga' })
    await t.deps.db.write((q) => q.update(users).set({ displayName: 'Olga the Owner' }).where(eq(users.id, owner.user.id)))
    const p = await createProject(t, owner)
    const r1 = await createReportIn(t, p, { createdBy: owner.user.id })
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000)
      await t.request('POST', `/api/projects/${p.slug}/bugs/${r1.reportNumber}/comments`, { token: owner.token, body: { body: `c${i}` } })
    }
    const res = await t.request('GET', `/api/projects/${p.slug}/activity`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data.map((a: { action: string }) => a.action)).toEqual(['commented', 'commented', 'commented', 'created'])
    expect(res.body.data[0]).toMatchObject({ actor_id: owner.user.id, actor_name: 'Olga the Owner', report_number: 1, report_id: r1.id })
    const filtered = await t.request('GET', `/api/projects/${p.slug}/activity?action=created`, { token: owner.token })
    expect(filtered.body.data).toHaveLength(1)

    for (let i = 0; i < 55; i++) await createReportIn(t, p)
    const page1 = (await t.request('GET', `/api/projects/${p.slug}/activity`, { token: owner.token })).body.data
    const page2 = (await t.request('GET', `/api/projects/${p.slug}/activity?page=2`, { token: owner.token })).body.data
    expect(page1).toHaveLength(50)
    expect(page2).toHaveLength(9)
    expect(page2.at(-1).report_number).toBe(1)
    expect((await t.request('GET', `/api/projects/${p.slug}/activity?page=0`, { token: owner.token })).status).toBe(400)
  })

  it('answers 404 to non-members', async () => {
    const p = await createProject(t, await createUser(t))
    const stranger = await createUser(t)
    expect((await t.request('GET', `/api/projects/${p.slug}/activity`, { token: stranger.token })).status).toBe(404)
  })
})

describe('GET /api/projects/:slug/audit-log', () => {
  it('pages label and settings changes, newest first, with totals', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    for (let i = 0; i < 52; i++) await t.request('POST', `/api/projects/${p.slug}/labels`, { token: owner.token, body: { name: `L${i}` } })
    await t.request('PATCH', `/api/projects/${p.slug}`, { token: owner.token, body: { description: 'x' } })
    const first = (await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: owner.token })).body.data
    expect(first).toMatchObject({ total: 53, page: 1, per_page: 50 })
    expect(first.entries).toHaveLength(50)
    expect(first.entries[0]).toMatchObject({ action: 'project.updated', actor_id: owner.user.id, actor_name: owner.user.name })
    expect(first.entries[1]).toMatchObject({ action: 'label.created', details: { name: 'L51', color: '#2E5BFF' } })
    const second = (await t.request('GET', `/api/projects/${p.slug}/audit-log?page=2`, { token: owner.token })).body.data
    expect(second.entries.map((e: { details: { name: string } }) => e.details.name)).toEqual(['L2', 'L1', 'L0'])
  })

  it('includes account-wide member changes and leaves out other accounts', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    const other = await createUser(t)
    await createProject(t, other)
    await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'new.artist@example.com', role: 'member' } })
    await t.request('POST', '/api/account/invites', { token: other.token, body: { email: 'elsewhere@example.com', role: 'member' } })
    const log = (await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: owner.token })).body.data
    expect(log.total).toBe(1)
    expect(log.entries[0].action).toMatch(/^invit/)
    expect(JSON.stringify(log)).not.toContain('elsewhere@example.com')
  })

  it('needs project.settings (403) and membership (404)', async () => {
    const owner = await createUser(t)
    const p = await createProject(t, owner)
    const member = await addTeammate(t, owner, { overrides: { 'project.settings': false } })
    const stranger = await createUser(t)
    expect((await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: member.token })).status).toBe(403)
    expect((await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: stranger.token })).status).toBe(404)
  })
})
