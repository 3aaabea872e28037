import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { accounts } from '../../src/modules/auth/accounts.table'
import { comments } from '../../src/modules/comments/comments.table'
import { labels, reportLabels } from '../../src/modules/labels/labels.table'
import { projects } from '../../src/modules/projects/projects.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { deny, team } from './setup'

let t: TestApp
let events: DomainEvent[]
beforeEach(() => {
  t = createTestApp()
  events = []
  t.deps.events.subscribe((_tx, e) => void events.push(e))
})
afterEach(() => t.close())

describe('POST /projects/:slug/bugs', () => {
  it('files a report with defaults, numbering, activity and bug_created', async () => {
    const { owner, project, base } = await team(t)
    const res = await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 'Crash on load', description: 'NullReferenceException at Boot.cs' } })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({ ok: true, data: { id: expect.any(String), report_number: 1 } })
    const second = await t.request('POST', `${base}/bugs`, {
      token: owner.token,
      body: { title: 'Audio', description: 'x', priority: 'critical', category: 'audio', platform: 'PC', game_version: '1.2', steps_to_reproduce: '1. open' },
    })
    expect(second.body.data.report_number).toBe(2)
    const read = await t.request('GET', `${base}/bugs/1`, { token: owner.token })
    expect(read.body.data.bug).toMatchObject({ status: 'open', priority: 'medium', category: 'other', source: 'user', error_type: 'NullReferenceException', created_by: owner.user.id })
    const read2 = await t.request('GET', `${base}/bugs/2`, { token: owner.token })
    expect(read2.body.data.bug).toMatchObject({ priority: 'critical', category: 'audio', platform: 'PC', game_version: '1.2', steps_to_reproduce: '1. open' })
    expect(events.map((e) => e.type)).toEqual(['bug_created', 'bug_created'])
    expect((await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, project.id)).limit(1)))[0]!.liveReportCount).toBe(2)
  })

  it.each([
    ['missing title and description', {}, 400, 'title and description are required'],
    ['missing description', { title: 'x' }, 400, 'description is required'],
    ['blank title', { title: '   ', description: 'd' }, 400, 'title'],
    ['title over 300', { title: 'x'.repeat(301), description: 'd' }, 400, 'title'],
    ['description over 50000', { title: 't', description: 'x'.repeat(50_001) }, 400, 'description'],
    ['bad priority', { title: 't', description: 'd', priority: 'urgent' }, 400, 'priority'],
    ['bad category', { title: 't', description: 'd', category: 'bugs' }, 400, 'category'],
    ['title not a string', { title: 5, description: 'd' }, 400, 'title'],
  ])('%s → %i', async (_name, body, status, message) => {
    const { owner, base } = await team(t)
    const res = await t.request('POST', `${base}/bugs`, { token: owner.token, body })
    expect(res.status).toBe(status)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toContain(message)
  })

  it('answers 401 without a session, 404 to outsiders, 403 without bugs.create', async () => {
    const { mate, outsider, project, base } = await team(t)
    const body = { title: 't', description: 'd' }
    expect((await t.request('POST', `${base}/bugs`, { body })).status).toBe(401)
    expect((await t.request('POST', `${base}/bugs`, { token: outsider.token, body })).status).toBe(404)
    expect((await t.request('POST', '/api/projects/no-such/bugs', { token: mate.token, body })).status).toBe(404)
    await deny(t, mate, project, 'bugs.create')
    expect((await t.request('POST', `${base}/bugs`, { token: mate.token, body })).status).toBe(403)
  })

  it('answers 403 naming the limit when the report quota is used up', async () => {
    const { owner, base } = await team(t, { plan: 'free' })
    await t.deps.db.write((q) => q.update(accounts).set({ reportsCreated: 1_000_000_000 }).where(eq(accounts.id, owner.account.id)))
    const res = await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 't', description: 'd' } })
    expect(res.status).toBe(403)
    expect(res.body.error).toMatch(/^this account's limit of 1000 reports is reached/)
    expect((await t.request('GET', `${base}/bugs`, { token: owner.token })).body.data.total).toBe(0)
  })
})

describe('GET /projects/:slug/bugs/:number', () => {
  it('returns the full record with comments (internal too) and labels', async () => {
    const { owner, mate, project, base } = await team(t)
    const r = await createReportIn(t, project, {
      title: 'Boss crash',
      description: 'd',
      reporterName: 'Player1',
      reporterEmail: 'p@example.com',
      playerId: '7656119',
      metadata: { fps: 30 },
      screenshotKey: 'abcdefghijklmnopqrstuvwxyz0123456789.png',
      sentimentScore: -2,
      sentimentLevel: 'negative',
    })
    const now = t.clock.now()
    await t.deps.db.write((q) => q.insert(labels).values({ id: 'l1', projectId: project.id, name: 'crash', color: '#FF0000', createdAt: now }))
    await t.deps.db.write((q) => q.insert(reportLabels).values({ reportId: r.id, reportSeq: r.seq, labelId: 'l1' }))
    await t.deps.db.write((q) => q.insert(comments).values({ id: 'c1', reportId: r.id, projectId: project.id, authorId: mate.user.id, body: 'Repro on PS5', isInternal: true, createdAt: now, updatedAt: now }))
    const res = await t.request('GET', `${base}/bugs/${r.reportNumber}`, { token: owner.token })
    expect(res.status).toBe(200)
    const { bug, comments: cs, labels: ls } = res.body.data
    expect(bug).toMatchObject({
      id: r.id,
      report_number: 1,
      title: 'Boss crash',
      reporter_name: 'Player1',
      reporter_email: 'p@example.com',
      player_id: '7656119',
      steam_id: '7656119',
      metadata: { fps: 30 },
      screenshot_url: t.deps.files.url('abcdefghijklmnopqrstuvwxyz0123456789.png'),
      sentiment_score: -2,
      sentiment_level: 'negative',
      occurrences: 1,
      assigned_to: null,
      due_date: null,
      labels: [{ id: 'l1', name: 'crash', color: '#FF0000' }],
    })
    expect(ls).toEqual([{ id: 'l1', name: 'crash', color: '#FF0000' }])
    expect(cs).toEqual([{ id: 'c1', body: 'Repro on PS5', is_internal: true, author_id: mate.user.id, author_name: mate.user.name, created_at: now.toISOString() }])
  })

  it.each([
    ['unknown number', '99'],
    ['zero', '0'],
    ['negative', '-1'],
    ['not a number', 'abc'],
    ['decimal', '1.5'],
    ['huge', '99999999999999999999'],
  ])('404 report not found for %s', async (_name, number) => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project)
    const res = await t.request('GET', `${base}/bugs/${number}`, { token: owner.token })
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ ok: false, error: 'report not found' })
  })

  it('hides reports of other projects and deleted ones', async () => {
    const { owner, project, base } = await team(t)
    const other = (await team(t)).project
    await createReportIn(t, other)
    expect((await t.request('GET', `${base}/bugs/1`, { token: owner.token })).status).toBe(404)
    await createReportIn(t, project)
    await t.request('DELETE', `${base}/bugs/1`, { token: owner.token })
    expect((await t.request('GET', `${base}/bugs/1`, { token: owner.token })).status).toBe(404)
  })

  it('403 without bugs.view, 404 for outsiders', async () => {
    const { mate, outsider, project, base } = await team(t)
    await createReportIn(t, project)
    expect((await t.request('GET', `${base}/bugs/1`, { token: outsider.token })).status).toBe(404)
    await deny(t, mate, project, 'bugs.view')
    expect((await t.request('GET', `${base}/bugs/1`, { token: mate.token })).status).toBe(403)
  })
})

describe('PATCH /projects/:slug/bugs/:number', () => {
  it('changes fields, logs each change, emits one bug_updated with the changes', async () => {
    const { owner, mate, project, base } = await team(t)
    await createReportIn(t, project, { title: 'Old', priority: 'low' })
    events.length = 0
    t.clock.advance(60_000)
    const res = await t.request('PATCH', `${base}/bugs/1`, {
      token: owner.token,
      body: { title: 'New', status: 'in_progress', priority: 'critical', category: 'crash', assigned_to: mate.user.id, is_private: true, platform: 'Switch', ignored: 1 },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Report updated' } })
    const bug = (await t.request('GET', `${base}/bugs/1`, { token: owner.token })).body.data.bug
    expect(bug).toMatchObject({ title: 'New', status: 'in_progress', priority: 'critical', category: 'crash', assigned_to: mate.user.id, is_private: true, platform: 'Switch' })
    expect(bug.updated_at).toBe(t.clock.now().toISOString())
    expect((await t.deps.db.read((q) => q.select().from(reports).limit(1)))[0]!.priorityRank).toBe(0)
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'bug_updated',
      projectId: project.id,
      actorId: owner.user.id,
      data: { title: 'New', priority: 'critical' },
      changes: { title: ['Old', 'New'], status: ['open', 'in_progress'], priority: ['low', 'critical'], assigned_to: [null, mate.user.id], is_private: [false, true] },
    })
    const log = (await t.request('GET', `${base}/bugs/1/activity`, { token: owner.token })).body.data
    expect(log.map((a: { action: string; field: string | null }) => [a.action, a.field])).toEqual([
      ['created', null],
      ['updated', 'title'],
      ['updated', 'status'],
      ['updated', 'priority'],
      ['updated', 'category'],
      ['updated', 'assigned_to'],
      ['updated', 'is_private'],
      ['updated', 'platform'],
    ])
    expect(log[1]).toMatchObject({ old_value: 'Old', new_value: 'New', actor_id: owner.user.id, actor_name: owner.user.name })
    expect(log[6]).toMatchObject({ old_value: 'false', new_value: 'true' })
  })

  it('writes nothing and emits nothing when the values are already so', async () => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project, { title: 'Same' })
    events.length = 0
    const before = (await t.deps.db.read((q) => q.select().from(reports).limit(1)))[0]!
    t.clock.advance(1000)
    const res = await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { title: 'Same', status: 'open' } })
    expect(res.status).toBe(200)
    expect(events).toEqual([])
    expect((await t.deps.db.read((q) => q.select().from(reports).limit(1)))[0]!.updatedAt).toEqual(before.updatedAt)
    expect((await t.request('GET', `${base}/bugs/1/activity`, { token: owner.token })).body.data).toHaveLength(1)
  })

  it.each([
    ['"" unassigns', ''],
    ['null unassigns', null],
  ])('%s', async (_name, value) => {
    const { owner, mate, project, base } = await team(t)
    await createReportIn(t, project)
    await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { assigned_to: mate.user.id } })
    const res = await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { assigned_to: value } })
    expect(res.status).toBe(200)
    expect((await t.request('GET', `${base}/bugs/1`, { token: owner.token })).body.data.bug.assigned_to).toBeNull()
  })

  it.each([
    ['empty body', {}, 'no valid fields to update'],
    ['only unknown fields', { foo: 1 }, 'no valid fields to update'],
    ['bad status', { status: 'done' }, 'status'],
    ['is_private as a string', { is_private: 'true' }, 'is_private'],
    ['is_private as a number', { is_private: 1 }, 'is_private'],
    ['empty title', { title: '' }, 'title'],
    ['title over 300', { title: 'x'.repeat(301) }, 'title'],
    ['assignee outside the team', { assigned_to: 'not-a-member' }, 'assigned_to'],
  ])('400 for %s', async (_name, body, message) => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project)
    const res = await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
  })

  it('400 for an assignee from another account', async () => {
    const { owner, outsider, project, base } = await team(t)
    await createReportIn(t, project)
    const res = await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { assigned_to: outsider.user.id } })
    expect(res.status).toBe(400)
  })

  it('needs bugs.edit, and bugs.assign when assigned_to is sent', async () => {
    const { mate, project, base } = await team(t)
    await createReportIn(t, project)
    await deny(t, mate, project, 'bugs.assign')
    expect((await t.request('PATCH', `${base}/bugs/1`, { token: mate.token, body: { status: 'resolved' } })).status).toBe(200)
    const res = await t.request('PATCH', `${base}/bugs/1`, { token: mate.token, body: { status: 'closed', assigned_to: mate.user.id } })
    expect(res.status).toBe(403)
    expect((await t.request('GET', `${base}/bugs/1`, { token: mate.token })).body.data.bug.status).toBe('resolved')
    await deny(t, mate, project, 'bugs.edit')
    expect((await t.request('PATCH', `${base}/bugs/1`, { token: mate.token, body: { status: 'open' } })).status).toBe(403)
  })

  it('404 for unknown, deleted or malformed numbers', async () => {
    const { owner, outsider, project, base } = await team(t)
    await createReportIn(t, project)
    expect((await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { status: 'closed' } })).status).toBe(404)
    expect((await t.request('PATCH', `${base}/bugs/x`, { token: owner.token, body: { status: 'closed' } })).status).toBe(404)
    expect((await t.request('PATCH', `${base}/bugs/1`, { token: outsider.token, body: { status: 'closed' } })).status).toBe(404)
    await t.request('DELETE', `${base}/bugs/1`, { token: owner.token })
    expect((await t.request('PATCH', `${base}/bugs/1`, { token: owner.token, body: { status: 'closed' } })).status).toBe(404)
  })
})

describe('DELETE /projects/:slug/bugs/:number', () => {
  it('soft-deletes: gone from reads and lists, counter down, quota kept, activity logged', async () => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project)
    await createReportIn(t, project)
    const res = await t.request('DELETE', `${base}/bugs/1`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Report deleted' } })
    expect((await t.request('GET', `${base}/bugs/1`, { token: owner.token })).status).toBe(404)
    const list = (await t.request('GET', `${base}/bugs`, { token: owner.token })).body.data
    expect(list.bugs.map((b: { report_number: number }) => b.report_number)).toEqual([2])
    expect(list.total).toBe(1)
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!.reportsCreated).toBe(2)
    const row = (await t.deps.db.read((q) => q.select().from(reports).where(eq(reports.reportNumber, 1)).limit(1)))[0]!
    expect(row.deletedAt).toEqual(t.clock.now())
    expect((await t.request('DELETE', `${base}/bugs/1`, { token: owner.token })).status).toBe(404)
    // A new report takes the next number: deleted numbers are never reused.
    expect((await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 't', description: 'd' } })).body.data.report_number).toBe(3)
  })

  it('403 without bugs.delete, 404 for outsiders and bad numbers', async () => {
    const { mate, outsider, project, base } = await team(t)
    await createReportIn(t, project)
    expect((await t.request('DELETE', `${base}/bugs/1`, { token: outsider.token })).status).toBe(404)
    expect((await t.request('DELETE', `${base}/bugs/0`, { token: mate.token })).status).toBe(404)
    await deny(t, mate, project, 'bugs.delete')
    expect((await t.request('DELETE', `${base}/bugs/1`, { token: mate.token })).status).toBe(403)
  })
})

describe('GET /projects/:slug/bugs/:number/activity', () => {
  it('lists entries oldest first with actor names; 404 for unknown reports', async () => {
    const { owner, mate, project, base } = await team(t)
    const r = await createReportIn(t, project, { createdBy: owner.user.id })
    await t.request('PATCH', `${base}/bugs/1`, { token: mate.token, body: { priority: 'high' } })
    const res = await t.request('GET', `${base}/bugs/1/activity`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: expect.any(Number), action: 'created', field: null, old_value: null, new_value: null, actor_id: owner.user.id, actor_name: owner.user.name, created_at: r.createdAt.toISOString() },
      { id: expect.any(Number), action: 'updated', field: 'priority', old_value: 'medium', new_value: 'high', actor_id: mate.user.id, actor_name: mate.user.name, created_at: expect.any(String) },
    ])
    expect((await t.request('GET', `${base}/bugs/2/activity`, { token: owner.token })).status).toBe(404)
  })
})
