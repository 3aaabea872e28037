import { afterEach, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn } from '../helpers/fixtures'
import { addMember } from '../team/team-helpers'
import { addSessions, rollUp, setup } from './analytics-helpers'

let close: (() => void) | undefined
afterEach(() => close?.())

describe('dashboard and usage', () => {
  it("sums the account's projects: counts by status, priority and category, daily new and resolved, crash-free rate per project", async () => {
    const { t, project, owner } = await setup()
    close = t.close
    const other = await createProject(t, owner)
    await createReportIn(t, project, { priority: 'high', category: 'crash' })
    const fixed = await createReportIn(t, project, { priority: 'low', category: 'ui' })
    await createReportIn(t, other, { priority: 'high', category: 'ui' })
    const gone = await createReportIn(t, other, { priority: 'critical', category: 'audio' })
    await t.deps.db.write((q) => q.update(reports).set({ status: 'resolved', updatedAt: t.clock.now() }).where(eq(reports.id, fixed.id)))
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, gone.id)))
    await addSessions(t, project, { n: 4, crashed: 1 })
    await addSessions(t, other, { n: 2, daysAgo: 3 })
    await rollUp(t)
    const d = (await t.request('GET', '/api/analytics/dashboard', { token: owner.token })).body.data
    expect(d.projects).toBe(2)
    expect(d.by_status).toEqual({ open: 2, in_progress: 0, resolved: 1, closed: 0, wont_fix: 0 })
    expect(d.by_priority).toEqual({ critical: 0, high: 2, medium: 0, low: 1 })
    expect(d.by_category).toMatchObject({ crash: 1, ui: 2, audio: 0 })
    expect(d.daily).toHaveLength(30)
    // 4 filed today (the deleted one was filed too), 1 resolved today
    expect(d.daily.at(-1)).toEqual({ day: '2026-01-05', new: 4, events: 4, crash_events: 1, crashes: 1, resolved: 1, sessions: 4 })
    expect(d.daily.at(-4)).toMatchObject({ sessions: 2 })
    const rates = Object.fromEntries(d.crash_free.map((c: any) => [c.project_id, c.crash_free_rate]))
    expect(rates).toEqual({ [project.id]: 0.75, [other.id]: 1 })

    const usage = (await t.request('GET', '/api/usage', { token: owner.token })).body.data
    expect(usage).toMatchObject({ reports: { today: 4, last_7_days: 4, last_30_days: 4 }, sessions: { today: 4, last_7_days: 6, last_30_days: 6 }, storage_bytes: 0 })
    const one = (await t.request('GET', `/api/projects/${project.slug}/usage`, { token: owner.token })).body.data
    expect(one).toMatchObject({ reports: { today: 2 }, sessions: { today: 4, last_7_days: 4 } })

    // A project's analytics overview reads its own trends, not the account's (issue 29).
    const mine = (await t.request('GET', `/api/projects/${project.slug}/dashboard`, { token: owner.token })).body.data
    expect(mine.projects).toBe(1)
    expect(mine.by_status).toEqual({ open: 1, in_progress: 0, resolved: 1, closed: 0, wont_fix: 0 })
    expect(mine.daily.at(-1)).toEqual({ day: '2026-01-05', new: 2, events: 2, crash_events: 1, crashes: 1, resolved: 1, sessions: 4 })
    expect(mine.crash_free.map((c: any) => [c.project_id, c.crash_free_rate])).toEqual([[project.id, 0.75]])
  })
})

describe('dashboard events', () => {
  it('counts every submission of a crash, not the one report it files: a crash hit 20 times is 20 events', async () => {
    const { t, project, owner } = await setup()
    close = t.close
    const crash = { title: '[Error] NullReferenceException: Object reference not set', description: 'x\n\n--- Stack Trace ---\n  at Boss.Update () in Assets/Boss.cs:4', category: 'crash' }
    for (let i = 0; i < 20; i++) expect((await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { ...crash, player_id: `p${i}` } })).status).toBe(i === 0 ? 201 : 200)
    await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'Door stuck', description: 'The door on level 2' } })
    await rollUp(t)
    const today = (await t.request('GET', '/api/analytics/dashboard', { token: owner.token })).body.data.daily.at(-1)
    expect(today).toMatchObject({ new: 2, events: 21, crash_events: 20 })
  })
})

describe('access', () => {
  const routes = ['/crash-analytics', '/bad-deploy', '/release-health', '/regressions', '/regressions/detect', '/perf-summary', '/satisfaction', '/players', '/customers/overview', '/events/summary', '/usage', '/dashboard']
  it('lets members with analytics.view read every analytics route and answers 403 without it', async () => {
    const { t, owner, project } = await setup()
    close = t.close
    const reader = await addMember(t, owner, 'member')
    const blocked = await addMember(t, owner, 'member', { overrides: { 'analytics.view': false } })
    for (const path of routes) {
      expect([path, (await t.request('GET', `/api/projects/${project.slug}${path}`, { token: reader.token })).status]).toEqual([path, 200])
      const res = await t.request('GET', `/api/projects/${project.slug}${path}`, { token: blocked.token })
      expect([path, res.status, res.body.error]).toEqual([path, 403, 'you need the analytics.view permission'])
    }
    expect((await t.request('GET', '/api/analytics/dashboard', { token: blocked.token })).status).toBe(403)
    expect((await t.request('GET', '/api/projects/nope/crash-analytics', { token: reader.token })).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${project.slug}/crash-analytics`)).status).toBe(401)
  })

  it('gates tier-2 and tier-3 routes by plan; self_hosted gates nothing', async () => {
    const gated = ['/crash-groups', '/churn-risk', '/events', '/log-stack', '/bugs/1/triage', '/bugs/1/replays']
    const expected = { free: [403, 403, 403, 403, 403, 403], pro: [200, 200, 200, 200, 200, 403], self_hosted: [200, 200, 200, 200, 200, 200] }
    for (const [plan, statuses] of Object.entries(expected)) {
      const { t, project, get } = await setup(plan as never)
      await createReportIn(t, project)
      const got = []
      for (const path of gated) got.push((await get(path)).status)
      t.close()
      expect([plan, got]).toEqual([plan, statuses])
    }
  })
})
