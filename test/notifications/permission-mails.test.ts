// Team mail asks what the report list asks (issue 28, finding 4): a member with every permission off
// (so without `bugs.view`) receives no mail that shows report titles or content: not the per-minute
// mail about game-filed reports, nor mails about team-filed reports, comments and status changes on
// reports they followed, overdue notices or the weekly digest. A teammate who holds `bugs.view` does.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collectJobs } from '../../src/jobs/registry'
import { PERMISSION_GROUPS } from '../../src/modules/permissions/permissions.catalog'
import { noticeOverdueReports } from '../../src/modules/workflow/due-dates.jobs'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, clearOutbox, outbox } from './helpers'

let t: TestApp
let owner: TestUser
let ada: TestUser
let blind: TestUser
let p: TestProject

beforeEach(async () => {
  t = createTestApp({ start: '2026-01-07T10:00:00Z' })
  owner = await createUser(t, { name: 'Owner' })
  ada = await addMember(t, owner, 'Ada')
  blind = await addMember(t, owner, 'Blind')
  p = await createProject(t, owner, { name: 'Game A2' })
})
afterEach(() => t.close())

const api = (u: TestUser, method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${p.slug}${path}`, { token: u.token, body })
const everyPermissionOff = async () => {
  const groups = Object.fromEntries(Object.keys(PERMISSION_GROUPS).map((g) => [g, false]))
  expect((await t.request('PUT', `/api/account/members/${blind.user.id}/permissions`, { token: owner.token, body: { groups } })).status).toBe(200)
}
const mailsTo = async (u: TestUser) => (await outbox(t)).filter((m) => m.to === u.user.email)

describe('a member with every permission off', () => {
  it('receives no new-report, comment, status, overdue or digest mail, while a teammate with bugs.view does', async () => {
    // Before losing its permissions, the member files a report, so it follows it, and is assigned it with a due date.
    expect((await api(blind, 'POST', '/bugs', { title: 'Secret boss fight softlocks', description: 'x' })).status).toBe(201)
    expect((await api(owner, 'PATCH', '/bugs/1', { assigned_to: blind.user.id })).status).toBe(200)
    expect((await api(owner, 'PATCH', '/bugs/1/due-date', { due_date: '2026-01-08T00:00:00Z' })).status).toBe(200)
    expect((await api(ada, 'POST', '/bugs/1/comments', { body: 'Seen it too' })).status).toBe(201)
    await t.runner.drain()
    expect((await mailsTo(blind)).map((m) => m.subject)).toContain('[Game A2] New comment on #1: Secret boss fight softlocks')
    await everyPermissionOff()
    await clearOutbox(t)

    for (let i = 0; i < 6; i++) await createReportIn(t, p, { title: `Unannounced DLC crash ${i}` })
    expect((await api(ada, 'POST', '/bugs', { title: 'Ending spoiler typo', description: 'x' })).status).toBe(201)
    expect((await api(owner, 'POST', '/bugs/1/comments', { body: 'Fixed in the next build' })).status).toBe(201)
    expect((await api(owner, 'PATCH', '/bugs/1', { status: 'in_progress' })).status).toBe(200)
    t.clock.advance(60_000)
    await t.runner.drain()
    t.clock.set('2026-01-09T00:00:00Z')
    await noticeOverdueReports(t.deps)
    t.clock.set('2026-01-12T09:00:00Z')
    await collectJobs(t.deps).schedules.find((s) => s.name === 'notifications.weekly-digest')!.run()
    await t.runner.drain()

    expect(await mailsTo(blind)).toEqual([])
    // Which of these jobs runs first is the runner's choice (PostgreSQL claims a batch at once): the mails, not their order.
    const adas = (await mailsTo(ada)).map((m) => m.subject).sort()
    expect(adas).toEqual(['[Game A2] New comment on #1: Secret boss fight softlocks', '[Game A2] #1 is now in progress: Secret boss fight softlocks', '[Game A2] 6 new reports', 'Your weekly bug digest: 8 new, 0 resolved'].sort())
    expect((await mailsTo(owner)).map((m) => m.subject)).toContain('[Game A2] New report #8: Ending spoiler typo')
  })

  it('gets mail again once bugs.view is back', async () => {
    await everyPermissionOff()
    expect((await t.request('PUT', `/api/account/members/${blind.user.id}/permissions`, { token: owner.token, body: { permissions: { 'bugs.view': true } } })).status).toBe(200)
    await createReportIn(t, p, { title: 'Visible again' })
    t.clock.advance(60_000)
    await t.runner.drain()
    expect((await mailsTo(blind)).map((m) => m.subject)).toEqual(['[Game A2] New report #1: Visible again'])
  })
})
