// Issue 25: turning the tracker on published every report at once, crash dumps included. The tracker
// now shows what its `publish` mode and auto-filed rule let through, and explicit Publish / Unpublish
// per report (and in bulk) win over both.
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, putSettings, setReport } from './public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const CRASH = 'Access violation\n--- Stack Trace ---\nat Game.Main (main.cpp:12)\n--- Recent Logs ---\nloading level 3'
const team = (method: string, path: string, body?: unknown, token = owner.token) => t.request(method, `/api/projects/${project.slug}${path}`, { token, body })
const tracker = async () => (await t.request('GET', `/api/tracker/${project.slug}`)).body.data.bugs.map((b: { title: string }) => b.title).sort()
const publicRead = (n: number) => t.request('GET', `/api/tracker/${project.slug}/bugs/${n}`)
const publicPage = async (n: number) => (await team('GET', `/bugs/${n}`)).body.data.bug.public_page

describe('the publish modes', () => {
  it("shows nothing of a new project until the team touches a report: status, label, public reply; an internal note is no touch", async () => {
    const status = await createReportIn(t, project, { title: 'Status changed' })
    const labelled = await createReportIn(t, project, { title: 'Labelled' })
    const replied = await createReportIn(t, project, { title: 'Replied to' })
    const noted = await createReportIn(t, project, { title: 'Internal note only' })
    await createReportIn(t, project, { title: 'Untouched' })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    expect(await tracker()).toEqual([])
    expect(await publicPage(status.reportNumber)).toEqual({ tracker_enabled: true, publish: 'triaged', shown: false, reason: 'not_triaged' })

    expect((await team('PATCH', `/bugs/${status.reportNumber}`, { status: 'in_progress' })).status).toBe(200)
    const label = (await team('POST', '/labels', { name: 'Confirmed' })).body.data
    expect((await team('POST', `/bugs/${labelled.reportNumber}/labels`, { label_id: label.id })).status).toBe(200)
    expect((await team('POST', `/bugs/${replied.reportNumber}/comments`, { body: 'Thanks, we can reproduce it' })).status).toBe(201)
    expect((await team('POST', `/bugs/${noted.reportNumber}/comments`, { body: 'looks like the loader', is_internal: true })).status).toBe(201)
    // A priority change is not one of the touches.
    expect((await team('PATCH', `/bugs/${noted.reportNumber}`, { priority: 'high' })).status).toBe(200)

    expect(await tracker()).toEqual(['Labelled', 'Replied to', 'Status changed'])
    expect(await publicPage(status.reportNumber)).toEqual({ tracker_enabled: true, publish: 'triaged', shown: true, reason: 'triaged' })
    expect((await publicRead(noted.reportNumber)).status).toBe(404)
    // The first touch is kept.
    const first = (await t.deps.db.read((q) => q.select({ at: reports.triagedAt }).from(reports).where(eq(reports.id, status.id)).limit(1)))[0]!.at
    t.clock.advance(60_000)
    await team('PATCH', `/bugs/${status.reportNumber}`, { status: 'open' })
    expect((await t.deps.db.read((q) => q.select({ at: reports.triagedAt }).from(reports).where(eq(reports.id, status.id)).limit(1)))[0]!.at).toEqual(first)
  })

  it('all: every report not private; manual: only published ones', async () => {
    await createReportIn(t, project, { title: 'Plain' })
    const chosen = await createReportIn(t, project, { title: 'Chosen' })
    const secret = await createReportIn(t, project, { title: 'Private' })
    await setReport(t, secret, { isPrivate: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all' })
    expect(await tracker()).toEqual(['Chosen', 'Plain'])
    await putSettings(t, owner, project, 'tracker-settings', { publish: 'manual' })
    expect(await tracker()).toEqual([])
    expect(await publicPage(chosen.reportNumber)).toMatchObject({ shown: false, reason: 'manual' })
    await team('PATCH', `/bugs/${chosen.reportNumber}`, { published: true })
    expect(await tracker()).toEqual(['Chosen'])
    expect((await publicRead(chosen.reportNumber)).status).toBe(200)
    // Publishing a private report does not make it public: private wins.
    await team('PATCH', `/bugs/${secret.reportNumber}`, { published: true })
    expect(await tracker()).toEqual(['Chosen'])
    expect(await publicPage(secret.reportNumber)).toMatchObject({ shown: false, reason: 'private' })
  })

  it('keeps auto-filed reports (SDK captures, Sentry events, stack traces) team-only unless included or published', async () => {
    await createReportIn(t, project, { title: 'Player report' })
    const system = await createReportIn(t, project, { title: '[Error] NullReferenceException', source: 'system' })
    const traced = await createReportIn(t, project, { title: '[Error] EXCEPTION_ACCESS_VIOLATION reading address 0x00000000DEADBEEF', description: CRASH })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all' })
    expect(await tracker()).toEqual(['Player report'])
    expect(await publicPage(traced.reportNumber)).toMatchObject({ shown: false, reason: 'auto_filed' })
    expect((await team('GET', `/bugs/${system.reportNumber}`)).body.data.bug.auto_filed).toBe(true)
    expect((await team('GET', `/bugs/${traced.reportNumber}`)).body.data.bug.auto_filed).toBe(true)

    // An explicit Publish shows one whatever the rule; the stack trace itself stays off the page.
    await team('PATCH', `/bugs/${traced.reportNumber}`, { published: true })
    expect(await tracker()).toEqual(['Player report', '[Error] EXCEPTION_ACCESS_VIOLATION reading address 0x00000000DEADBEEF'])
    expect((await publicRead(traced.reportNumber)).body.data.description).toBe('Access violation')

    await putSettings(t, owner, project, 'tracker-settings', { include_auto_filed: true })
    expect(await tracker()).toHaveLength(3)
    // A team edit that removes the stack trace makes the report an ordinary one (the flag is computed).
    await team('PATCH', `/bugs/${traced.reportNumber}`, { description: 'Crashes when loading level 3' })
    expect((await team('GET', `/bugs/${traced.reportNumber}`)).body.data.bug.auto_filed).toBe(false)
  })

  it('lets an explicit Unpublish hide a report under every mode, and null hand it back to the mode', async () => {
    const r = await createReportIn(t, project, { title: 'Spoiler' })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', allow_upvotes: true })
    expect((await team('PATCH', `/bugs/${r.reportNumber}`, { published: false })).status).toBe(200)
    expect(await tracker()).toEqual([])
    expect((await publicRead(r.reportNumber)).status).toBe(404)
    expect((await t.request('POST', `/api/tracker/${project.slug}/bugs/${r.reportNumber}/vote`, {})).status).toBe(404)
    expect(await publicPage(r.reportNumber)).toMatchObject({ shown: false, reason: 'unpublished' })
    const read = (await team('GET', `/bugs/${r.reportNumber}`)).body.data.bug
    expect(read.published).toBe(false)
    await team('PATCH', `/bugs/${r.reportNumber}`, { published: null })
    expect(await tracker()).toEqual(['Spoiler'])
    const activity = (await team('GET', `/bugs/${r.reportNumber}/activity`)).body.data
    expect(activity.filter((a: { field: string }) => a.field === 'published').map((a: { old_value: string; new_value: string }) => [a.old_value, a.new_value])).toEqual([
      [null, 'false'],
      ['false', null],
    ])
  })

  it('publishes and unpublishes in bulk (bugs.edit), and refuses a bad value with 400', async () => {
    const a = await createReportIn(t, project, { title: 'A' })
    const b = await createReportIn(t, project, { title: 'B' })
    await createReportIn(t, project, { title: 'C' })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'manual' })
    const res = await team('PATCH', '/bugs/bulk', { bug_numbers: [a.reportNumber, b.reportNumber], published: true })
    expect(res.body).toEqual({ ok: true, data: { updated: 2 } })
    expect(await tracker()).toEqual(['A', 'B'])
    await team('PATCH', '/bugs/bulk', { bug_numbers: [b.reportNumber], published: false })
    expect(await tracker()).toEqual(['A'])
    for (const published of ['yes', 1]) {
      const bad = await team('PATCH', '/bugs/bulk', { bug_numbers: [b.reportNumber], published })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toContain('published')
    }
    const viewer = await addMember(t, owner, { 'bugs.edit': false })
    expect((await team('PATCH', '/bugs/bulk', { bug_numbers: [b.reportNumber], published: true }, viewer.token)).status).toBe(403)
    expect((await team('PATCH', `/bugs/${b.reportNumber}`, { published: true }, viewer.token)).status).toBe(403)
    expect(await tracker()).toEqual(['A'])
  })

  it('applies to the tracker page, search and votes alike', async () => {
    const shown = await createReportIn(t, project, { title: 'Texture flicker shown' })
    await createReportIn(t, project, { title: 'Texture flicker hidden' })
    await team('PATCH', `/bugs/${shown.reportNumber}`, { published: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, allow_search: true, allow_upvotes: true })
    const found = (await t.request('GET', `/api/tracker/${project.slug}?q=texture`)).body.data
    expect(found.bugs.map((b: { title: string }) => b.title)).toEqual(['Texture flicker shown'])
    expect(found.total).toBe(1)
    const page = await t.request('GET', `/tracker/${project.slug}`, { headers: { accept: 'text/html' } })
    expect(page.body).toContain('Texture flicker shown')
    expect(page.body).not.toContain('Texture flicker hidden')
    expect((await t.request('POST', `/api/tracker/${project.slug}/bugs/2/vote`, {})).status).toBe(404)
    // The players' copy of the settings does not carry the team's publishing rules.
    const settings = (await t.request('GET', `/api/tracker/${project.slug}`)).body.data.settings
    expect(settings).not.toHaveProperty('publish')
    expect(settings).not.toHaveProperty('include_auto_filed')
  })
})
