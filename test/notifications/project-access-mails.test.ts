// A member limited to chosen projects receives no mail about the others (issue 25): not for new
// reports (team-filed or from the game), comments and status changes on reports they followed or were
// assigned before the limit, overdue notices, nor in the weekly digest, which covers only their projects.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectJobs } from '../../src/jobs/registry'
import { noticeOverdueReports } from '../../src/modules/workflow/due-dates.jobs'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, clearOutbox, outbox, recipients } from './helpers'

let t: TestApp
let owner: TestUser
let ada: TestUser
let vendor: TestUser
let a: TestProject
let b: TestProject

beforeEach(async () => {
  t = createTestApp({ start: '2026-01-07T10:00:00Z' })
  owner = await createUser(t, { name: 'Owner' })
  ada = await addMember(t, owner, 'Ada')
  vendor = await addMember(t, owner, 'Vendor')
  a = await createProject(t, owner, { name: 'Aurora Racer' })
  b = await createProject(t, owner, { name: 'Brimstone Kart' })
})
afterEach(() => t.close())

const api = (u: TestUser, p: TestProject, method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${p.slug}${path}`, { token: u.token, body })
const emails = (...users: TestUser[]) => users.map((u) => u.user.email).sort()
const limitVendorTo = async (p: TestProject) => {
  expect((await t.request('PATCH', `/api/account/members/${vendor.user.id}`, { token: owner.token, body: { project_access: [p.id] } })).status).toBe(200)
}

describe('mails to a member limited to project A', () => {
  it('stop for reports of B they followed or were assigned before the limit, and go on for A', async () => {
    // Before the limit the vendor files B#1 (so follows it) and is assigned it; Ada follows it by commenting.
    expect((await api(vendor, b, 'POST', '/bugs', { title: 'Kart clips through lava', description: 'x' })).status).toBe(201)
    expect((await api(owner, b, 'PATCH', '/bugs/1', { assigned_to: vendor.user.id })).status).toBe(200)
    expect((await api(ada, b, 'POST', '/bugs/1/comments', { body: 'Seen it too' })).status).toBe(201)
    expect((await api(vendor, a, 'POST', '/bugs', { title: 'Aurora drifts', description: 'x' })).status).toBe(201)
    await t.runner.drain()
    expect(await recipients(t, /Kart clips through lava/)).toContain(vendor.user.email)
    await limitVendorTo(a)
    await clearOutbox(t)

    expect((await api(owner, b, 'POST', '/bugs/1/comments', { body: 'Fixed in the next build' })).status).toBe(201)
    expect((await api(owner, b, 'PATCH', '/bugs/1', { status: 'resolved' })).status).toBe(200)
    expect((await api(owner, a, 'POST', '/bugs/1/comments', { body: 'Looking at it' })).status).toBe(201)
    await t.runner.drain()
    expect(await recipients(t, /New comment on #1: Kart clips/)).toEqual(emails(ada))
    expect(await recipients(t, /#1 is now resolved: Kart clips/)).toEqual(emails(ada))
    expect(await recipients(t, /New comment on #1: Aurora drifts/)).toEqual(emails(vendor))
  })

  it('stop for new reports of B, team-filed or from the game, and go on for A', async () => {
    await limitVendorTo(a)
    expect((await api(ada, b, 'POST', '/bugs', { title: 'Lava is blue', description: 'x' })).status).toBe(201)
    expect((await api(ada, a, 'POST', '/bugs', { title: 'Snow is red', description: 'x' })).status).toBe(201)
    await createReportIn(t, b, { title: 'NullReferenceException in KartPhysics' })
    await createReportIn(t, a, { title: 'NullReferenceException in AuroraSky' })
    t.clock.advance(60_000)
    await t.runner.drain()
    expect(await recipients(t, /Lava is blue/)).toEqual(emails(owner))
    expect(await recipients(t, /Snow is red/)).toEqual(emails(owner, vendor))
    expect(await recipients(t, /KartPhysics/)).toEqual(emails(owner, ada))
    expect(await recipients(t, /AuroraSky/)).toEqual(emails(owner, ada, vendor))
    expect((await outbox(t)).filter((m) => m.to === vendor.user.email && /Brimstone|Kart|Lava/.test(m.subject + m.text))).toEqual([])
  })

  it('stop for overdue reports of B they are assigned', async () => {
    await createReportIn(t, b, { title: 'Overdue kart' })
    await createReportIn(t, a, { title: 'Overdue aurora' })
    for (const p of [a, b]) {
      expect((await api(owner, p, 'PATCH', '/bugs/1', { assigned_to: vendor.user.id })).status).toBe(200)
      expect((await api(owner, p, 'PATCH', '/bugs/1/due-date', { due_date: '2026-01-08T00:00:00Z' })).status).toBe(200)
    }
    await limitVendorTo(a)
    await t.runner.drain()
    await clearOutbox(t)
    t.clock.set('2026-01-09T00:00:00Z')
    await noticeOverdueReports(t.deps)
    expect((await outbox(t)).map((m) => [m.to, m.subject])).toEqual([[vendor.user.email, '[Aurora Racer] Overdue: #1 Overdue aurora']])
  })

  it('sends a weekly digest that covers A only, while the owner’s covers both', async () => {
    await createReportIn(t, a, { title: 'Aurora sky flickers', priority: 'critical' })
    await createReportIn(t, b, { title: 'Brimstone lava freezes', priority: 'critical' })
    await limitVendorTo(a)
    t.clock.advance(60_000)
    await t.runner.drain()
    await clearOutbox(t)
    t.clock.set('2026-01-12T09:00:00Z')
    await collectJobs(t.deps).schedules.find((s) => s.name === 'notifications.weekly-digest')!.run()
    await t.runner.drain()
    const digest = async (u: TestUser) => (await outbox(t)).find((m) => m.to === u.user.email && m.subject.startsWith('Your weekly bug digest'))!
    expect((await digest(vendor)).subject).toBe('Your weekly bug digest: 1 new, 0 resolved')
    expect((await digest(vendor)).text).toContain('Aurora Racer: 1 new, 0 resolved, 1 open')
    expect((await digest(vendor)).text).not.toMatch(/Brimstone/)
    expect((await digest(owner)).subject).toBe('Your weekly bug digest: 2 new, 0 resolved')
    expect((await digest(owner)).text).toContain('Brimstone Kart: 1 new, 0 resolved, 1 open')
    expect((await digest(ada)).text.split('--')[0]).toBe((await digest(owner)).text.split('--')[0])
  })
})
