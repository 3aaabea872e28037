import { Cron } from 'croner'
import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { DAY } from '../../src/lib/clock'
import { collectJobs } from '../../src/jobs/registry'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, clearOutbox, outbox, setPreferences } from './helpers'

let t: TestApp
let owner: TestUser
let project: TestProject

// Reports are filed on Wednesday 2026-01-07; the digest runs on Monday 2026-01-12.
beforeEach(async () => {
  t = createTestApp({ start: '2026-01-07T10:00:00Z' })
  owner = await createUser(t)
  project = await createProject(t, owner, { name: 'Space Game' })
})
afterEach(() => t.close())

const digestSchedule = () => collectJobs(t.deps).schedules.find((s) => s.name === 'notifications.weekly-digest')!
const digestJobs = () => t.deps.db.read((q) => rowsOf<{ payload: string; status: string }>(q, sql`select payload, status from jobs where kind = 'notifications.digest' order by id`))

describe('weekly digest', () => {
  it('is scheduled for Monday 09:00 server time', () => {
    const s = digestSchedule()
    expect(s.pattern).toBe('0 9 * * 1')
    const next = new Cron(s.pattern, { paused: true }).nextRun(new Date(2026, 0, 10, 15, 0))!
    expect([next.getDay(), next.getHours(), next.getMinutes(), next.getDate()]).toEqual([1, 9, 0, 12])
  })

  it('enqueues one digest per account per week and mails the summary to members who want it', async () => {
    const ada = await addMember(t, owner)
    const bob = await addMember(t, owner)
    await setPreferences(t, bob, { email_weekly_digest: false })
    const loner = await createUser(t)
    await createReportIn(t, project, { title: 'Save file corrupted', priority: 'critical' })
    await createReportIn(t, project, { title: 'Typo in menu', priority: 'low' })
    const fixed = await createReportIn(t, project, { title: 'Sound stutters', priority: 'high' })
    await t.deps.db.write((q) => q.update(reports).set({ status: 'resolved', updatedAt: t.clock.now() }).where(eq(reports.id, fixed.id)))
    t.clock.advance(60_000)
    await t.runner.drain()
    await clearOutbox(t)

    t.clock.set('2026-01-12T09:00:00Z')
    const schedule = digestSchedule()
    await schedule.run()
    await schedule.run()
    expect(await digestJobs()).toHaveLength(4) // every user has an account of their own: owner, ada, bob, loner
    await t.runner.drain()

    const mails = await outbox(t)
    expect(mails.map((m) => m.to).sort()).toEqual([owner.user.email, ada.user.email].sort())
    const mail = mails[0]!
    expect(mail.subject).toBe('Your weekly bug digest: 3 new, 1 resolved')
    expect(mail.text).toContain('Space Game: 3 new, 1 resolved, 2 open')
    expect(mail.text.indexOf('Save file corrupted')).toBeLessThan(mail.text.indexOf('Typo in menu'))
    expect(mail.text).not.toMatch(/Sound stutters \(/)
    expect(mail.text).toMatch(/Unsubscribe: http:\/\/glitchbox\.test\/notifications\/unsubscribe\?token=/)
    expect(mail.html).toContain('Save file corrupted')
    expect(mails.some((m) => m.to === loner.user.email || m.to === bob.user.email)).toBe(false)

    t.clock.advance(7 * DAY)
    await schedule.run()
    expect(await digestJobs()).toHaveLength(8)
    await t.runner.drain()
    const next = (await outbox(t)).slice(mails.length)
    expect(next[0]!.subject).toBe('Your weekly bug digest: 0 new, 0 resolved')
  })
})
