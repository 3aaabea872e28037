import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { activity } from '../../src/modules/activity/activity.table'
import { projects } from '../../src/modules/projects/projects.table'
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

/** Four reports (#1 already resolved), one deleted (#4), and one in another project. */
async function seeded() {
  const ctx = await team(t)
  const r: Awaited<ReturnType<typeof createReportIn>>[] = []
  for (let i = 0; i < 4; i++) r.push(await createReportIn(t, ctx.project))
  await t.request('PATCH', `${ctx.base}/bugs/1`, { token: ctx.owner.token, body: { status: 'resolved' } })
  await t.request('DELETE', `${ctx.base}/bugs/4`, { token: ctx.owner.token })
  const other = await team(t)
  const foreign = await createReportIn(t, other.project)
  events.length = 0
  return { ...ctx, r, foreign }
}

const statusOf = async (base: string, token: string, n: number) => (await t.request('GET', `${base}/bugs/${n}`, { token })).body.data?.bug?.status

describe('PATCH /projects/:slug/bugs/bulk', () => {
  it('updates live reports of the project by number: activity per changed field, one event per changed report', async () => {
    const { owner, mate, base, project } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [1, 2, 3, 4, 99], status: 'resolved', assigned_to: mate.user.id } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { updated: 3 } })
    for (const n of [1, 2, 3]) expect(await statusOf(base, owner.token, n)).toBe('resolved')
    expect(events.map((e) => e.type)).toEqual(['bug_updated', 'bug_updated', 'bug_updated'])
    const byNumber = new Map(events.map((e) => [e.data.report_number, e.changes]))
    expect(byNumber.get(1)).toEqual({ assigned_to: [null, mate.user.id] })
    expect(byNumber.get(2)).toEqual({ status: ['open', 'resolved'], assigned_to: [null, mate.user.id] })
    const entries = (await t.deps.db.read((q) => q.select().from(activity).where(eq(activity.projectId, project.id)))).filter((a) => a.action === 'updated' && a.actorId === owner.user.id)
    // #1: status earlier + assignee now; #2 and #3: status and assignee now.
    expect(entries).toHaveLength(1 + 1 + 2 + 2)
  })

  it('addresses reports by id; foreign and deleted ids do not count', async () => {
    const { owner, base, r, foreign } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_ids: [r[1]!.id, r[3]!.id, foreign.id], priority: 'critical', is_private: true } })
    expect(res.body.data).toEqual({ updated: 1 })
    const bug = (await t.request('GET', `${base}/bugs/2`, { token: owner.token })).body.data.bug
    expect(bug).toMatchObject({ priority: 'critical', is_private: true })
  })

  it('counts reports already in the asked state but emits nothing for them', async () => {
    const { owner, base } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [1], status: 'resolved' } })
    expect(res.body.data).toEqual({ updated: 1 })
    expect(events).toEqual([])
  })

  it.each([
    ['no selector', { status: 'closed' }],
    ['both selectors', { bug_numbers: [1], bug_ids: ['7f1c6a1e-1b1a-4a4e-9a57-1c1f1c1f1c1f'], status: 'closed' }],
    ['empty list', { bug_numbers: [], status: 'closed' }],
    ['over 100', { bug_numbers: Array.from({ length: 101 }, (_, i) => i + 1), status: 'closed' }],
    ['ids not UUIDs', { bug_ids: ['abc'], status: 'closed' }],
    ['numbers not integers', { bug_numbers: [1.5], status: 'closed' }],
    ['no field to set', { bug_numbers: [1] }],
    ['title is not bulk-updatable', { bug_numbers: [1], title: 'x' }],
    ['bad status', { bug_numbers: [1], status: 'done' }],
    ['assignee outside the team', { bug_numbers: [1], assigned_to: 'nobody' }],
  ])('400 for %s, nothing changed', async (_name, body) => {
    const { owner, base } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(await statusOf(base, owner.token, 2)).toBe('open')
    expect(events).toEqual([])
  })

  it('needs bugs.edit, plus bugs.assign for assigned_to; 404 for outsiders', async () => {
    const { mate, outsider, project, base } = await seeded()
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: outsider.token, body: { bug_numbers: [2], status: 'closed' } })).status).toBe(404)
    await deny(t, mate, project, 'bugs.assign')
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: mate.token, body: { bug_numbers: [2], assigned_to: '' } })).status).toBe(403)
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: mate.token, body: { bug_numbers: [2], status: 'closed' } })).status).toBe(200)
    await deny(t, mate, project, 'bugs.edit')
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: mate.token, body: { bug_numbers: [3], status: 'closed' } })).status).toBe(403)
    expect(await statusOf(base, mate.token, 3)).toBe('open')
  })
})

describe('PATCH /projects/:slug/bugs/bulk with labels (issue 29: a bulk label action)', () => {
  const labelsOf = async (base: string, token: string, n: number) =>
    ((await t.request('GET', `${base}/bugs/${n}`, { token })).body.data.bug.labels as { name: string }[]).map((l) => l.name).sort()
  const label = async (base: string, token: string, name: string) => (await t.request('POST', `${base}/labels`, { token, body: { name } })).body.data.id as string

  it('puts a label on every selected report and takes one off, with an activity entry per report it reached', async () => {
    const { owner, base, project } = await seeded()
    const [crash, ui] = [await label(base, owner.token, 'crash'), await label(base, owner.token, 'ui')]
    await t.request('POST', `${base}/bugs/2/labels`, { token: owner.token, body: { label_id: ui } })
    const put = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [2, 3], add_label_ids: [crash], remove_label_ids: [ui] } })
    expect(put.body).toEqual({ ok: true, data: { updated: 2 } })
    expect(await labelsOf(base, owner.token, 2)).toEqual(['crash'])
    expect(await labelsOf(base, owner.token, 3)).toEqual(['crash'])
    expect(await labelsOf(base, owner.token, 1)).toEqual([])
    const entries = (await t.deps.db.read((q) => q.select().from(activity).where(eq(activity.projectId, project.id)))).filter((a) => a.field === 'labels')
    // #2 got ui by hand, then crash and lost ui in bulk; #3 got crash.
    expect(entries.map((a) => `${a.action} ${a.newValue ?? a.oldValue}`).sort()).toEqual(['labeled crash', 'labeled crash', 'labeled ui', 'unlabeled ui'])
    // Again: nothing left to change, no new entry.
    await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [2, 3], add_label_ids: [crash] } })
    expect((await t.deps.db.read((q) => q.select().from(activity).where(eq(activity.projectId, project.id)))).filter((a) => a.field === 'labels')).toHaveLength(4)
  })

  it('labels every report a filter selects', async () => {
    const { owner, base } = await seeded()
    const crash = await label(base, owner.token, 'crash')
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { filter: { status: 'open' }, add_label_ids: [crash] } })
    expect(res.body.data).toEqual({ updated: 2 })
    const listed = (await t.request('GET', `${base}/bugs?label=${crash}`, { token: owner.token })).body.data.bugs
    expect(listed.map((b: { report_number: number }) => b.report_number).sort()).toEqual([2, 3])
  })

  it("404 for a label that is not the project's, and nothing changes (not even the other fields asked)", async () => {
    const { owner, base } = await seeded()
    const other = await team(t)
    const foreign = await label(other.base, other.owner.token, 'crash')
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [2], status: 'closed', add_label_ids: [foreign] } })
    expect(res.status).toBe(404)
    expect(await statusOf(base, owner.token, 2)).toBe('open')
    expect(await labelsOf(base, owner.token, 2)).toEqual([])
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [2], add_label_ids: [] } })).status).toBe(400)
  })

  it('needs labels.manage besides bugs.edit', async () => {
    const { owner, mate, project, base } = await seeded()
    const crash = await label(base, owner.token, 'crash')
    await deny(t, mate, project, 'labels.manage')
    expect((await t.request('PATCH', `${base}/bugs/bulk`, { token: mate.token, body: { bug_numbers: [2], status: 'closed', add_label_ids: [crash] } })).status).toBe(403)
    expect(await statusOf(base, owner.token, 2)).toBe('open')
    expect(await labelsOf(base, owner.token, 2)).toEqual([])
  })
})

describe('DELETE /projects/:slug/bugs/bulk', () => {
  it('soft-deletes live reports of the project and keeps the live counter right', async () => {
    const { owner, base, project, r, foreign } = await seeded()
    const res = await t.request('DELETE', `${base}/bugs/bulk`, { token: owner.token, body: { bug_ids: [r[0]!.id, r[1]!.id, r[3]!.id, foreign.id] } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { deleted: 2 } })
    const list = (await t.request('GET', `${base}/bugs`, { token: owner.token })).body.data
    expect(list.bugs.map((b: { report_number: number }) => b.report_number)).toEqual([3])
    expect(list.total).toBe(1)
    expect((await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, project.id)).limit(1)))[0]!.liveReportCount).toBe(1)
    const again = await t.request('DELETE', `${base}/bugs/bulk`, { token: owner.token, body: { bug_numbers: [1, 2, 3] } })
    expect(again.body.data).toEqual({ deleted: 1 })
  })

  it.each([
    ['no selector', {}],
    ['empty', { bug_ids: [] }],
    ['over 100', { bug_numbers: Array.from({ length: 101 }, (_, i) => i + 1) }],
    ['bad ids', { bug_ids: [1] }],
  ])('400 for %s', async (_name, body) => {
    const { owner, base } = await seeded()
    expect((await t.request('DELETE', `${base}/bugs/bulk`, { token: owner.token, body })).status).toBe(400)
  })

  it('403 without bugs.delete, 404 for outsiders', async () => {
    const { mate, outsider, project, base } = await seeded()
    expect((await t.request('DELETE', `${base}/bugs/bulk`, { token: outsider.token, body: { bug_numbers: [2] } })).status).toBe(404)
    await deny(t, mate, project, 'bugs.delete')
    expect((await t.request('DELETE', `${base}/bugs/bulk`, { token: mate.token, body: { bug_numbers: [2] } })).status).toBe(403)
    expect(await statusOf(base, mate.token, 2)).toBe('open')
  })
})
