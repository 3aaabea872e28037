import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mailOutbox } from '../../src/mail/mail.table'
import { noticeOverdueReports } from '../../src/modules/workflow/due-dates.jobs'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp({ start: '2026-11-20T12:00:00Z' })
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
  await createReportIn(t, project, { title: 'Save file lost' })
})
afterEach(() => t.close())

const setDue = (due_date: unknown, n = 1) => t.request('PATCH', `${base}/bugs/${n}/due-date`, { token: owner.token, body: { due_date } })
const dueOf = async (n = 1) => (await t.request('GET', `${base}/bugs/${n}`, { token: owner.token })).body.data.bug.due_date
const overdueMails = async () => (await t.deps.db.read((q) => q.select().from(mailOutbox))).filter((m) => m.subject.includes('Overdue'))

describe('due dates', () => {
  it('sets a date (end of that UTC day) or date-time, clears with null, and logs the change', async () => {
    expect((await setDue('2026-12-01')).body.data).toEqual({ due_date: '2026-12-01T23:59:59.999Z' })
    expect(await dueOf()).toBe('2026-12-01T23:59:59.999Z')
    expect((await setDue('2026-11-25T09:30:00+02:00')).status).toBe(200)
    expect(await dueOf()).toBe('2026-11-25T07:30:00.000Z')
    expect((await setDue(null)).status).toBe(200)
    expect(await dueOf()).toBeNull()
    for (const bad of ['tomorrow', '2026-02-30x', 12, '']) expect((await setDue(bad)).status).toBe(400)
    const activity = (await t.request('GET', `${base}/bugs/1/activity`, { token: owner.token })).body.data.filter((a: { field: string }) => a.field === 'due_date')
    expect(activity).toHaveLength(3)
  })

  it('mails an overdue report’s assignee once per due date, honouring preferences, not for resolved reports', async () => {
    const dev = await addTeammate(t, owner)
    await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { assigned_to: dev.user.id } })
    await createReportIn(t, project, { title: 'Already fixed' })
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { assigned_to: dev.user.id, status: 'resolved' } })
    await setDue('2026-11-21T00:00:00Z')
    await setDue('2026-11-21T00:00:00Z', 2)
    expect(await noticeOverdueReports(t.deps)).toBe(0)
    t.clock.advance(24 * 3600_000)
    expect(await noticeOverdueReports(t.deps)).toBe(1)
    expect(await noticeOverdueReports(t.deps)).toBe(0)
    expect((await overdueMails()).map((m) => [m.to, m.subject])).toEqual([[dev.user.email, `[${project.name}] Overdue: #1 Save file lost`]])
    // A new due date is a new notice; a member who turned assignment mails off gets none.
    await setDue('2026-11-21T06:00:00Z')
    await t.request('PUT', '/api/notifications/preferences', { token: dev.token, body: { email_bug_assigned: false } })
    expect(await noticeOverdueReports(t.deps)).toBe(1)
    expect(await overdueMails()).toHaveLength(1)
  })

  it('needs bugs.edit', async () => {
    const viewer = await addTeammate(t, owner, { overrides: { 'bugs.edit': false } })
    expect((await t.request('PATCH', `${base}/bugs/1/due-date`, { token: viewer.token, body: { due_date: null } })).status).toBe(403)
  })
})
