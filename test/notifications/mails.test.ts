import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute, rowsOf } from '../../src/db/client'
import { accountMembers } from '../../src/modules/auth/accounts.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, outbox, recipients, setPreferences } from './helpers'

let t: TestApp
let owner: TestUser
let ada: TestUser
let bob: TestUser
let cy: TestUser
let project: TestProject

beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { name: 'Owner' })
  ada = await addMember(t, owner, 'Ada')
  bob = await addMember(t, owner, 'Bob')
  cy = await addMember(t, owner, 'Cy')
  project = await createProject(t, owner, { name: 'Space Game' })
})
afterEach(() => t.close())

const as = (u: TestUser) => ({
  api: (method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${project.slug}${path}`, { token: u.token, body }),
})
const emails = (...users: TestUser[]) => users.map((u) => u.user.email).sort()

async function fileAs(u: TestUser, title = 'Crash on load') {
  const res = await as(u).api('POST', '/bugs', { title, description: 'The game closes at 40% loading.' })
  expect(res.status).toBe(201)
  await t.runner.drain()
  return res.body.data.report_number as number
}

describe('new report mails', () => {
  it('mails every member who wants them except the one who filed it, via a job', async () => {
    await setPreferences(t, cy, { email_bug_created: false })
    const res = await as(ada).api('POST', '/bugs', { title: 'Crash on load', description: 'x' })
    expect(res.status).toBe(201)
    expect(await outbox(t)).toEqual([])
    await t.runner.drain()
    expect(await recipients(t, /New report #1/)).toEqual(emails(owner, bob))
    const [mail] = await outbox(t)
    expect(mail!.subject).toBe('[Space Game] New report #1: Crash on load')
    expect(mail!.text).toContain('Ada filed a new report in Space Game.')
    // The link opens the report in the dashboard (a URL the web app serves).
    expect(mail!.text).toContain(`http://glitchbox.test/projects/${project.slug}/reports/1`)
    expect(mail!.html).toContain('<html>')
    expect(mail!.html).toContain('Crash on load')
  })

  it('mails every member for SDK reports (no actor) once the minute is over, and escapes HTML', async () => {
    await createReportIn(t, project, { title: '<script>alert(1)</script>' })
    await t.runner.drain()
    expect(await outbox(t)).toEqual([])
    t.clock.advance(60_000)
    await t.runner.drain()
    expect(await recipients(t, /New report/)).toEqual(emails(owner, ada, bob, cy))
    const mail = (await outbox(t))[0]!
    expect(mail.text).toContain('A player filed a new report')
    expect(mail.text).toContain(`http://glitchbox.test/projects/${project.slug}/reports/1`)
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&#60;script&#62;')
  })

  it('mails each member once about a burst of SDK reports within a minute', async () => {
    for (let i = 1; i <= 25; i++) await createReportIn(t, project, { title: `Crash on GPU ${i}` })
    t.clock.advance(60_000)
    await t.runner.drain()
    await createReportIn(t, project, { title: 'Next minute' })
    expect(await recipients(t, /25 new reports/)).toEqual(emails(owner, ada, bob, cy))
    expect(await outbox(t)).toHaveLength(4)
    const mail = (await outbox(t))[0]!
    expect(mail.subject).toBe('[Space Game] 25 new reports')
    expect(mail.text).toContain('#1 Crash on GPU 1')
    expect(mail.text).toContain('#20 Crash on GPU 20')
    expect(mail.text).not.toContain('#21 Crash')
    expect(mail.text).toContain('…and 5 more.')
    t.clock.advance(60_000)
    await t.runner.drain()
    expect(await recipients(t, /New report #26: Next minute/)).toEqual(emails(owner, ada, bob, cy))
  })

  it('mails nobody when the creating transaction rolls back', async () => {
    await expect(
      t.deps.db.write(async (tx) => {
        await t.deps.events.emit(tx, { type: 'bug_created', projectId: project.id, reportId: 'nope', actorId: null, data: {} })
        throw new Error('rollback')
      }),
    ).rejects.toThrow('rollback')
    expect((await t.deps.db.read((q) => rowsOf(q, sql`select cast(count(*) as int) as n from jobs where kind like 'notifications.%'`)))[0]).toEqual({ n: 0 })
  })
})

describe('status, assignment and comment mails', () => {
  it('mails the assignee on assignment, unless they turned it off or assigned themselves', async () => {
    const n = await fileAs(owner)
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: bob.user.id })
    await t.runner.drain()
    expect(await recipients(t, /You were assigned/)).toEqual(emails(bob))
    expect((await outbox(t)).find((m) => /You were assigned/.test(m.subject))!.text).toContain('Owner assigned #1 Crash on load to you.')

    await setPreferences(t, cy, { email_bug_assigned: false })
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: cy.user.id })
    await as(ada).api('PATCH', `/bugs/${n}`, { assigned_to: ada.user.id })
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: null })
    await t.runner.drain()
    expect(await recipients(t, /You were assigned/)).toEqual(emails(bob))
  })

  it('mails the creator, commenters and assignee on status changes, but not the one who made it', async () => {
    const n = await fileAs(ada)
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: bob.user.id })
    await as(cy).api('POST', `/bugs/${n}/comments`, { body: 'Same here' })
    await t.runner.drain()
    await as(owner).api('PATCH', `/bugs/${n}`, { status: 'resolved' })
    await t.runner.drain()
    expect(await recipients(t, /is now resolved/)).toEqual(emails(ada, bob, cy))
    const mail = (await outbox(t)).find((m) => /is now resolved/.test(m.subject))!
    expect(mail.subject).toBe('[Space Game] #1 is now resolved: Crash on load')
    expect(mail.text).toContain('Owner changed the status of #1 Crash on load from open to resolved.')

    await setPreferences(t, bob, { email_bug_status: false })
    await as(ada).api('PATCH', `/bugs/${n}`, { status: 'wont_fix' })
    await t.runner.drain()
    expect(await recipients(t, /is now won’t fix/)).toEqual(emails(cy))
  })

  it('sends one mail, not two, to someone assigned and moved in the same update', async () => {
    const n = await fileAs(ada)
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: bob.user.id, status: 'in_progress' })
    await t.runner.drain()
    expect(await recipients(t, /You were assigned/)).toEqual(emails(bob))
    expect(await recipients(t, /is now in progress/)).toEqual(emails(ada))
  })

  it('mails followers and the assignee about comments, internal ones included, not the commenter', async () => {
    const n = await fileAs(ada)
    await as(owner).api('PATCH', `/bugs/${n}`, { assigned_to: bob.user.id })
    await as(cy).api('POST', `/bugs/${n}/comments`, { body: 'Only on Vulkan', is_internal: true })
    await t.runner.drain()
    expect(await recipients(t, /New comment on #1/)).toEqual(emails(ada, bob))
    const mail = (await outbox(t)).find((m) => /New comment/.test(m.subject))!
    expect(mail.text).toContain('commented on #1 Crash on load (internal note):')
    expect(mail.text).toContain('Only on Vulkan')

    await setPreferences(t, ada, { email_bug_commented: false })
    await as(bob).api('POST', `/bugs/${n}/comments`, { body: 'Fixed in 1.2' })
    await t.runner.drain()
    const second = (await outbox(t)).filter((m) => m.text.includes('Fixed in 1.2')).map((m) => m.to)
    expect(second).toEqual(emails(cy))
  })

  it('mails nobody who has left the team', async () => {
    const n = await fileAs(ada)
    await t.deps.db.write((q) => q.delete(accountMembers).where(eq(accountMembers.userId, ada.user.id)))
    await as(owner).api('PATCH', `/bugs/${n}`, { status: 'closed' })
    await t.runner.drain()
    expect(await recipients(t, /is now closed/)).toEqual([])
  })
})

/** A report filed by a game client; its mail goes out once the minute's window closes. */
async function fileFromGame() {
  await createReportIn(t, project)
  t.clock.advance(60_000)
  await t.runner.drain()
}

describe('unsubscribe links', () => {
  const linkIn = (text: string) => /Unsubscribe: (\S+)/.exec(text)![1]!

  it('puts the link in both parts; opening it only asks, and the form post turns that preference off without signing in', async () => {
    await fileFromGame()
    const mail = (await outbox(t)).find((m) => m.to === bob.user.email)!
    const link = linkIn(mail.text)
    expect(link).toMatch(/^http:\/\/glitchbox\.test\/notifications\/unsubscribe\?token=/)
    expect(mail.html).toContain(`href="${link}"`)
    const prefs = async () => (await t.request('GET', '/api/notifications/preferences', { token: bob.token })).body.data
    // A link scanner or prefetcher opening the link (any number of times) changes nothing: the page asks.
    for (let i = 0; i < 2; i++) {
      const ask = await t.request('GET', link.replace('http://glitchbox.test', ''), { headers: { accept: 'text/html' } })
      expect(ask.status).toBe(200)
      expect(ask.body).toContain('<form class="card" method="post" action="/notifications/unsubscribe">')
      expect(ask.body).toContain('Stop new report emails')
    }
    expect((await prefs()).email_bug_created).toBe(true)
    const token = new URL(link).searchParams.get('token')!
    const done = await t.request('POST', '/notifications/unsubscribe', { body: new URLSearchParams({ token }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    expect(done.status).toBe(200)
    expect(done.body).toContain('You will no longer receive new report emails.')
    expect(await prefs()).toMatchObject({ email_bug_created: false, email_bug_status: true })
    await fileFromGame()
    expect(await recipients(t, /New report #2/)).toEqual(emails(owner, ada, cy))
  })

  it('GET on the API link of earlier mails changes nothing either: browsers go to the page, API callers are told to POST', async () => {
    await fileFromGame()
    const token = new URL(linkIn((await outbox(t)).find((m) => m.to === bob.user.email)!.text)).searchParams.get('token')!
    const api = `/api/notifications/unsubscribe?token=${encodeURIComponent(token)}`
    const browser = await t.request('GET', api, { headers: { accept: 'text/html,application/xhtml+xml' } })
    expect([browser.status, browser.headers.get('location')]).toEqual([303, `/notifications/unsubscribe?token=${encodeURIComponent(token)}`])
    const told = await t.request('GET', api)
    expect(told).toMatchObject({ status: 200, body: { ok: true, data: { message: 'Send this token with POST to stop new report emails; nothing has changed yet.' } } })
    expect((await t.request('GET', '/api/notifications/preferences', { token: bob.token })).body.data.email_bug_created).toBe(true)
    const done = await t.request('POST', '/api/notifications/unsubscribe', { body: { token } })
    expect(done).toMatchObject({ status: 200, body: { ok: true, data: { message: 'You will no longer receive new report emails.' } } })
    expect((await t.request('GET', '/api/notifications/preferences', { token: bob.token })).body.data.email_bug_created).toBe(false)
  })

  it('refuses tampered, missing and foreign tokens with 400, on the page and the API', async () => {
    await fileFromGame()
    const token = new URL(linkIn((await outbox(t)).find((m) => m.to === bob.user.email)!.text)).searchParams.get('token')!
    const [claim, mac] = token.split('.')
    const forged = `${Buffer.from(`${ada.user.id}:email_bug_created`).toString('base64url')}.${mac}`
    for (const bad of [`${claim}.${'0'.repeat(64)}`, forged, 'garbage', '']) {
      const res = await t.request('POST', '/api/notifications/unsubscribe', { body: { token: bad } })
      expect(res.status, bad).toBe(400)
      expect(res.body).toEqual({ ok: false, error: 'this unsubscribe link is not valid' })
      expect((await t.request('GET', `/api/notifications/unsubscribe?token=${encodeURIComponent(bad)}`)).status, bad).toBe(400)
      const page = await t.request('GET', `/notifications/unsubscribe?token=${encodeURIComponent(bad)}`, { headers: { accept: 'text/html' } })
      expect([page.status, page.body.includes('This unsubscribe link is not valid.')], bad).toEqual([400, true])
      const form = await t.request('POST', '/notifications/unsubscribe', { body: new URLSearchParams({ token: bad }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      expect(form.status, bad).toBe(400)
    }
    expect((await t.request('GET', '/api/notifications/unsubscribe')).status).toBe(400)
    expect((await t.request('GET', '/api/notifications/preferences', { token: ada.token })).body.data.email_bug_created).toBe(true)
  })
})

describe('crash safety', () => {
  it('does not mail twice when a fan-out job runs again after a crash', async () => {
    await fileFromGame()
    const before = (await outbox(t)).length
    expect(before).toBe(4)
    await t.deps.db.write((q) => execute(q, sql`update jobs set status = 'pending', attempts = 0 where kind = 'notifications.new-reports'`))
    expect(await t.runner.drain()).toBe(1)
    expect(await outbox(t)).toHaveLength(before)
  })
})
