import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { comments } from '../../src/modules/comments/comments.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

let t: TestApp
let events: DomainEvent[]
beforeEach(() => {
  t = createTestApp()
  events = []
  t.deps.events.subscribe((_tx, e) => void events.push(e))
})
afterEach(() => t.close())

async function setup() {
  const owner = await createUser(t, { name: 'Ada' })
  const project = await createProject(t, owner)
  const report = await createReportIn(t, project, { title: 'Crash on load' })
  const url = `/api/projects/${project.slug}/bugs/${report.reportNumber}/comments`
  return { owner, project, report, url }
}

describe('POST /api/projects/:slug/bugs/:number/comments', () => {
  it('adds a comment, lists it, records activity and emits comment_added', async () => {
    const { owner, project, report, url } = await setup()
    events.length = 0
    const res = await t.request('POST', url, { token: owner.token, body: { body: 'Reproduced on PS5', is_internal: true } })
    expect(res.status).toBe(201)
    const id = res.body.data.id
    expect(res.body.data).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) })

    const list = await t.request('GET', url, { token: owner.token })
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([
      { id, body: 'Reproduced on PS5', is_internal: true, author_id: owner.user.id, author_name: 'Ada', created_at: t.clock.now().toISOString(), updated_at: t.clock.now().toISOString() },
    ])

    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'comment_added',
      projectId: project.id,
      reportId: report.id,
      actorId: owner.user.id,
      data: { id, body: 'Reproduced on PS5', is_internal: true, author_id: owner.user.id, author_name: 'Ada', report: { id: report.id, report_number: 1, title: 'Crash on load' } },
    })
    const activity = (await t.request('GET', `/api/projects/${project.slug}/activity?action=commented`, { token: owner.token })).body.data
    expect(activity).toHaveLength(1)
  })

  it('defaults is_internal to false and keeps comments in order', async () => {
    const { owner, url } = await setup()
    await t.request('POST', url, { token: owner.token, body: { body: 'first' } })
    t.clock.advance(1000)
    await t.request('POST', url, { token: owner.token, body: { body: 'second' } })
    const list = (await t.request('GET', url, { token: owner.token })).body.data
    expect(list.map((c: { body: string; is_internal: boolean }) => [c.body, c.is_internal])).toEqual([
      ['first', false],
      ['second', false],
    ])
  })

  it.each([
    [{}, 'body is required'],
    [{ body: '   ' }, 'body'],
    [{ body: 'x'.repeat(20_001) }, 'body'],
    [{ body: 'ok', is_internal: 'yes' }, 'is_internal'],
  ])('answers 400 for %j', async (body, message) => {
    const { owner, url } = await setup()
    events.length = 0
    const res = await t.request('POST', url, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect(await t.deps.db.read((q) => q.select().from(comments))).toHaveLength(0)
    expect(events).toHaveLength(0)
  })

  it('answers 404 for unknown, malformed and deleted reports', async () => {
    const { owner, project, report } = await setup()
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, report.id)))
    for (const n of ['1', '99', 'abc', '-1', '1.5']) {
      const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${n}/comments`, { token: owner.token, body: { body: 'hi' } })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'bug not found' })
      expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${n}/comments`, { token: owner.token })).status).toBe(404)
    }
  })

  it('needs comments.create (403) and membership (404)', async () => {
    const { owner, url } = await setup()
    const member = await addTeammate(t, owner, { overrides: { 'comments.create': false } })
    const stranger = await createUser(t)
    expect((await t.request('POST', url, { token: member.token, body: { body: 'hi' } })).status).toBe(403)
    expect((await t.request('POST', url, { token: stranger.token, body: { body: 'hi' } })).status).toBe(404)
    expect((await t.request('GET', url, { token: stranger.token })).status).toBe(404)
    expect((await t.request('POST', url, { body: { body: 'hi' } })).status).toBe(401)
    // A member who may comment can; one who may read sees the list.
    expect((await t.request('GET', url, { token: member.token })).status).toBe(200)
    expect(await t.deps.db.read((q) => q.select().from(comments))).toHaveLength(0)
  })
})
