import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mailOutbox } from '../../src/mail/mail.table'
import { evaluateAlerts } from '../../src/modules/workflow/alerts.jobs'
import { markSlaBreaches } from '../../src/modules/workflow/sla.jobs'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'
import { onSqlite } from '../helpers/pg-engine'
import { sqlRows } from '../helpers/sql-rows'

const HOUR = 3600_000
let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp({ start: '2026-11-20T12:00:00Z' })
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
})
afterEach(() => t.close())

const put = (rules: unknown, token = owner.token) => t.request('PUT', `${base}/sla`, { token, body: { rules } })
const file = (title: string, priority = 'high') => t.request('POST', `${base}/bugs`, { token: owner.token, body: { title, description: 'd', priority } })
const slaOf = async (n: number) => (await t.request('GET', `${base}/bugs/${n}`, { token: owner.token })).body.data.bug.sla
const listSla = async (state: string) => (await t.request('GET', `${base}/bugs?sla=${state}`, { token: owner.token })).body.data.bugs.map((b: { report_number: number }) => b.report_number)
const mails = async (word: string) => (await t.deps.db.read((q) => q.select().from(mailOutbox))).filter((m) => m.subject.includes(word))

describe('SLA rules', () => {
  it('PUT replaces all rules (one per priority, positive hours); GET reads them in priority order', async () => {
    expect((await put([{ priority: 'low', response_hours: 48, resolve_hours: 240 }, { priority: 'critical', response_hours: 1, resolve_hours: 8 }])).status).toBe(200)
    expect((await t.request('GET', `${base}/sla`, { token: owner.token })).body.data.rules.map((r: { priority: string }) => r.priority)).toEqual(['critical', 'low'])
    expect((await put([{ priority: 'high', response_hours: 2, resolve_hours: 24 }])).body.data.rules).toEqual([{ priority: 'high', response_hours: 2, resolve_hours: 24 }])
    for (const bad of [[{ priority: 'high', response_hours: 0, resolve_hours: 1 }], [{ priority: 'high', response_hours: 1, resolve_hours: 2 }, { priority: 'high', response_hours: 1, resolve_hours: 2 }], [{ priority: 'urgent', response_hours: 1, resolve_hours: 2 }]]) {
      expect((await put(bad)).status).toBe(400)
    }
    const member = await addTeammate(t, owner)
    expect((await put([], member.token)).status).toBe(403)
    expect((await t.request('GET', `${base}/sla`, { token: member.token })).body.data.rules).toHaveLength(1)
  })

  it('runs a clock per report: ok, at_risk in the last fifth, breached (marked once, mailed once); a comment meets the response', async () => {
    await put([{ priority: 'high', response_hours: 10, resolve_hours: 100 }])
    await file('Crash in lobby')
    await file('Low one', 'low')
    expect(await slaOf(2)).toBeNull()
    expect((await slaOf(1)).state).toBe('ok')
    expect((await slaOf(1)).response).toMatchObject({ state: 'ok', due_at: '2026-11-20T22:00:00.000Z' })
    t.clock.advance(8.5 * HOUR)
    expect((await slaOf(1)).state).toBe('at_risk')
    expect(await listSla('at_risk')).toEqual([1])
    expect(await listSla('ok')).toEqual([])
    t.clock.advance(2 * HOUR)
    expect((await slaOf(1)).state).toBe('breached')
    expect(await listSla('breached')).toEqual([1])
    expect(await markSlaBreaches(t.deps)).toBe(1)
    expect(await markSlaBreaches(t.deps)).toBe(0)
    await t.runner.drain()
    expect((await mails('SLA breached')).map((m) => m.to)).toEqual([owner.user.email])
    const activity = (await t.request('GET', `${base}/bugs/1/activity`, { token: owner.token })).body.data.map((a: { action: string }) => a.action)
    expect(activity).toContain('sla_breached')
    // A late comment still meets the response; the clock stays breached for the record.
    await t.request('POST', `${base}/bugs/1/comments`, { token: owner.token, body: { body: 'looking' } })
    expect((await slaOf(1)).response.met_at).not.toBeNull()
    expect((await slaOf(1)).state).toBe('breached')
  })

  it('met in time stays ok; resolving meets the resolve part; a priority change moves the due times', async () => {
    await put([{ priority: 'high', response_hours: 10, resolve_hours: 100 }, { priority: 'critical', response_hours: 1, resolve_hours: 4 }])
    await file('Stutter')
    t.clock.advance(HOUR)
    await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { status: 'in_progress' } })
    t.clock.advance(20 * HOUR)
    expect((await slaOf(1)).response.state).toBe('met')
    expect((await slaOf(1)).state).toBe('ok')
    await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { status: 'resolved' } })
    t.clock.advance(200 * HOUR)
    expect((await slaOf(1)).state).toBe('ok')
    expect(await markSlaBreaches(t.deps)).toBe(0)
    await file('Boom')
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { priority: 'critical' } })
    const sla = await slaOf(2)
    expect(new Date(sla.resolve.due_at).getTime() - t.clock.now().getTime()).toBe(4 * HOUR)
  })

  it.skipIf(!onSqlite)('the breach job reads only the running clocks through their partial indexes (SQLite: query plan)', () => {
    const plan = (sql: string) => (t.sqlite.query(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | ')
    expect(plan('SELECT report_id FROM report_sla WHERE response_due_at <= 1 AND responded_at IS NULL AND response_breached_at IS NULL LIMIT 500')).toContain('report_sla_response_running_idx')
    expect(plan('SELECT report_id FROM report_sla WHERE resolve_due_at <= 1 AND resolved_at IS NULL AND resolve_breached_at IS NULL LIMIT 500')).toContain('report_sla_resolve_running_idx')
  })
})

describe('alert rules', () => {
  const create = (body: unknown, token = owner.token) => t.request('POST', `${base}/alerts`, { token, body })

  it('validates, lists, updates and deletes rules (project.settings to change)', async () => {
    const made = await create({ metric: 'new_reports', threshold: 3, window_hours: 1 })
    expect(made.status).toBe(201)
    expect(made.body.data).toMatchObject({ metric: 'new_reports', threshold: 3, window_hours: 1, enabled: true, last_evaluated_at: null, last_fired_at: null })
    for (const bad of [{ metric: 'cpu', threshold: 1, window_hours: 1 }, { metric: 'new_reports', threshold: 0, window_hours: 1 }, { metric: 'new_reports', threshold: 1, window_hours: 0 }]) expect((await create(bad)).status).toBe(400)
    const member = await addTeammate(t, owner)
    expect((await create({ metric: 'new_reports', threshold: 3, window_hours: 1 }, member.token)).status).toBe(403)
    const id = made.body.data.id
    expect((await t.request('PATCH', `${base}/alerts/${id}`, { token: owner.token, body: { enabled: false, threshold: 5 } })).body.data).toMatchObject({ enabled: false, threshold: 5 })
    expect((await t.request('PATCH', `${base}/alerts/${id}`, { token: owner.token, body: {} })).status).toBe(400)
    expect((await t.request('GET', `${base}/alerts`, { token: member.token })).body.data).toHaveLength(1)
    expect((await t.request('DELETE', `${base}/alerts/${id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('DELETE', `${base}/alerts/${id}`, { token: owner.token })).status).toBe(404)
  })

  it('fires once per window when new reports cross the threshold, records the evaluation, mails the admins', async () => {
    const id = (await create({ metric: 'new_reports', threshold: 3, window_hours: 2 })).body.data.id
    const crash = (await create({ metric: 'new_crash_reports', threshold: 1, window_hours: 2 })).body.data.id
    await createReportIn(t, project, { title: 'a' })
    await createReportIn(t, project, { title: 'b' })
    expect(await evaluateAlerts(t.deps)).toEqual([])
    await createReportIn(t, project, { title: 'c', category: 'crash' })
    expect((await evaluateAlerts(t.deps)).sort()).toEqual([id, crash].sort())
    await createReportIn(t, project, { title: 'd' })
    t.clock.advance(HOUR)
    expect(await evaluateAlerts(t.deps)).toEqual([])
    const rule = (await t.request('GET', `${base}/alerts`, { token: owner.token })).body.data.find((r: { id: string }) => r.id === id)
    expect(rule).toMatchObject({ last_value: 4, last_fired_at: '2026-11-20T12:00:00.000Z', last_evaluated_at: '2026-11-20T13:00:00.000Z' })
    expect((await mails('Alert: new reports at 3')).map((m) => m.to)).toEqual([owner.user.email])
    // A new window: the old reports age out, new ones fire it again.
    t.clock.advance(3 * HOUR)
    expect(await evaluateAlerts(t.deps)).toEqual([])
    for (const x of ['e', 'f', 'g']) await createReportIn(t, project, { title: x })
    expect(await evaluateAlerts(t.deps)).toEqual([id])
    const activity = (await t.request('GET', `${base}/activity`, { token: owner.token })).body.data
    expect(JSON.stringify(activity)).toContain('alert_fired')
  })

  it('a first count starts at the reports of the last 30 days (the longest window), not at every report ever filed', async () => {
    await createReportIn(t, project, { title: 'old one' })
    t.clock.advance(40 * 24 * HOUR)
    await createReportIn(t, project, { title: 'recent one' })
    await createReportIn(t, project, { title: 'recent two' })
    await evaluateAlerts(t.deps)
    expect((await sqlRows(t, 'SELECT sum(reports) AS n, count(*) AS hours FROM report_hourly_counts'))[0]).toEqual({ n: 2, hours: 1 })
  })

  it('crash_rate is crashed per 100 sessions started in the window, ended or still running (the crash-free rate\'s rule)', async () => {
    const id = (await create({ metric: 'crash_rate', threshold: 25, window_hours: 24 })).body.data.id
    const session = async (token: string, crashed: boolean | null) => {
      await t.request('POST', '/api/sessions/start', { body: { api_key: project.apiKey, session_token: token } })
      if (crashed !== null) await t.request('POST', '/api/sessions/end', { body: { api_key: project.apiKey, session_token: token, crashed } })
    }
    await session('session-01', true)
    for (const s of ['session-02', 'session-03', 'session-04', 'session-05']) await session(s, false)
    await session('session-06', null)
    expect(await evaluateAlerts(t.deps)).toEqual([])
    // 1 crashed of 6 (session-06 still running counts, as in the crash-free rate: 83.33% crash-free).
    expect((await t.request('GET', `${base}/alerts`, { token: owner.token })).body.data[0].last_value).toBe(16.67)
    await session('session-07', true)
    expect(await evaluateAlerts(t.deps)).toEqual([id])
  })
})
