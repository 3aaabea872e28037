import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { labels, reportLabels } from '../../src/modules/labels/labels.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
})
afterEach(() => t.close())

const create = async (body: Record<string, unknown>, token = owner.token) => t.request('POST', `${base}/labels`, { token, body })
const list = async () => (await t.request('GET', `${base}/labels`, { token: owner.token })).body.data as { id: string; name: string; color: string }[]
const labelsOn = async (reportId: string) => (await t.deps.db.read((q) => q.select().from(reportLabels).where(eq(reportLabels.reportId, reportId)))).map((r) => r.labelId)

describe('labels CRUD', () => {
  it('creates with the default color, lists by name', async () => {
    const a = await create({ name: 'crash' })
    expect(a.status).toBe(201)
    expect(a.body.data).toEqual({ id: expect.any(String), name: 'crash', color: '#2E5BFF' })
    const b = await create({ name: 'audio', color: '#ff0000' })
    expect(b.body.data.color).toBe('#FF0000')
    const c = await create({ name: 'ui', color: '#0f0' })
    expect(c.body.data.color).toBe('#00FF00')
    expect((await list()).map((l) => l.name)).toEqual(['audio', 'crash', 'ui'])
  })

  it.each([
    [{}, 'name is required', 400],
    [{ name: '' }, 'name', 400],
    [{ name: 'x'.repeat(51) }, 'name', 400],
    [{ name: 'ok', color: 'red' }, 'color', 400],
    [{ name: 'ok', color: '#12345' }, 'color', 400],
    [{ name: 'ok', color: 123 }, 'color', 400],
  ])('refuses %j', async (body, message, status) => {
    const res = await create(body)
    expect(res.status).toBe(status)
    expect(res.body.error).toContain(message)
    expect(await list()).toEqual([])
  })

  it('answers 409 for a name that exists in the project (any case), not in another project', async () => {
    await create({ name: 'Crash' })
    for (const name of ['Crash', 'crash', ' CRASH ']) {
      const res = await create({ name })
      expect(res.status).toBe(409)
      expect(res.body.ok).toBe(false)
    }
    const other = await createProject(t, owner)
    expect((await t.request('POST', `/api/projects/${other.slug}/labels`, { token: owner.token, body: { name: 'Crash' } })).status).toBe(201)
    expect(await list()).toHaveLength(1)
  })

  it('renames and recolors; refuses a taken name, bad color and an empty change', async () => {
    const a = (await create({ name: 'a' })).body.data
    await create({ name: 'b' })
    const patch = (body: Record<string, unknown>) => t.request('PATCH', `${base}/labels/${a.id}`, { token: owner.token, body })
    const ok = await patch({ name: 'renamed', color: '#abcdef' })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ message: 'Label updated' })
    expect((await list()).find((l) => l.id === a.id)).toMatchObject({ name: 'renamed', color: '#ABCDEF' })
    expect((await patch({ name: 'RENAMED' })).status).toBe(200)
    expect((await patch({ name: 'b' })).status).toBe(409)
    expect((await patch({ color: 'blue' })).status).toBe(400)
    const empty = await patch({})
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('no valid fields to update')
    expect((await t.request('PATCH', `${base}/labels/nope`, { token: owner.token, body: { name: 'x' } })).status).toBe(404)
  })

  it('deletes a label and takes it off every report', async () => {
    const a = (await create({ name: 'a' })).body.data
    const keep = (await create({ name: 'keep' })).body.data
    const r1 = await createReportIn(t, project)
    const r2 = await createReportIn(t, project)
    for (const r of [r1, r2]) {
      await t.request('POST', `${base}/bugs/${r.reportNumber}/labels`, { token: owner.token, body: { label_id: a.id } })
      await t.request('POST', `${base}/bugs/${r.reportNumber}/labels`, { token: owner.token, body: { label_id: keep.id } })
    }
    const res = await t.request('DELETE', `${base}/labels/${a.id}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ message: 'Label deleted' })
    expect((await list()).map((l) => l.name)).toEqual(['keep'])
    expect(await labelsOn(r1.id)).toEqual([keep.id])
    expect(await labelsOn(r2.id)).toEqual([keep.id])
    expect((await t.request('DELETE', `${base}/labels/${a.id}`, { token: owner.token })).status).toBe(404)
  })

  it('keeps labels of other projects out of reach', async () => {
    const other = await createProject(t, owner)
    const foreign = (await t.request('POST', `/api/projects/${other.slug}/labels`, { token: owner.token, body: { name: 'x' } })).body.data
    expect((await t.request('PATCH', `${base}/labels/${foreign.id}`, { token: owner.token, body: { name: 'y' } })).status).toBe(404)
    expect((await t.request('DELETE', `${base}/labels/${foreign.id}`, { token: owner.token })).status).toBe(404)
    const r = await createReportIn(t, project)
    const put = await t.request('POST', `${base}/bugs/${r.reportNumber}/labels`, { token: owner.token, body: { label_id: foreign.id } })
    expect(put.status).toBe(404)
    expect(await labelsOn(r.id)).toEqual([])
    expect((await t.deps.db.read((q) => q.select().from(labels).where(eq(labels.id, foreign.id))))[0]!.name).toBe('x')
  })

  it('needs labels.manage for writes (403) and membership for everything (404)', async () => {
    const a = (await create({ name: 'a' })).body.data
    const r = await createReportIn(t, project)
    const member = await addTeammate(t, owner, { overrides: { 'labels.manage': false } })
    const stranger = await createUser(t)
    const writes: [string, string, Record<string, unknown>?][] = [
      ['POST', `${base}/labels`, { name: 'z' }],
      ['PATCH', `${base}/labels/${a.id}`, { name: 'z' }],
      ['DELETE', `${base}/labels/${a.id}`],
      ['POST', `${base}/bugs/${r.reportNumber}/labels`, { label_id: a.id }],
      ['DELETE', `${base}/bugs/${r.reportNumber}/labels/${a.id}`],
    ]
    for (const [method, path, body] of writes) {
      expect((await t.request(method, path, { token: member.token, body })).status).toBe(403)
      expect((await t.request(method, path, { token: stranger.token, body })).status).toBe(404)
    }
    expect((await t.request('GET', `${base}/labels`, { token: member.token })).status).toBe(200)
    expect((await t.request('GET', `${base}/labels`, { token: stranger.token })).status).toBe(404)
    expect((await list()).map((l) => l.name)).toEqual(['a'])
  })
})

describe('labels on reports', () => {
  it('adds idempotently, removes, and records labeled/unlabeled activity', async () => {
    const a = (await create({ name: 'crash' })).body.data
    const r = await createReportIn(t, project)
    const path = `${base}/bugs/${r.reportNumber}/labels`
    for (let i = 0; i < 2; i++) {
      const res = await t.request('POST', path, { token: owner.token, body: { label_id: a.id } })
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({ message: 'Label added' })
    }
    expect(await labelsOn(r.id)).toEqual([a.id])
    const del = await t.request('DELETE', `${path}/${a.id}`, { token: owner.token })
    expect(del.status).toBe(200)
    expect(del.body.data).toEqual({ message: 'Label removed' })
    expect(await labelsOn(r.id)).toEqual([])
    expect((await t.request('DELETE', `${path}/${a.id}`, { token: owner.token })).status).toBe(200)
    const feed = (await t.request('GET', `${base}/activity`, { token: owner.token })).body.data
    expect(feed.map((e: { action: string }) => e.action)).toEqual(['unlabeled', 'labeled', 'created'])
    expect(feed[1]).toMatchObject({ field: 'labels', new_value: 'crash', report_number: r.reportNumber })
  })

  it.each([
    [{}, 400],
    [{ label_id: '' }, 400],
    [{ label_id: 42 }, 400],
    [{ label_id: 'unknown' }, 404],
  ])('refuses %j', async (body, status) => {
    const r = await createReportIn(t, project)
    expect((await t.request('POST', `${base}/bugs/${r.reportNumber}/labels`, { token: owner.token, body })).status).toBe(status)
  })

  it('answers 404 for deleted or unknown reports', async () => {
    const a = (await create({ name: 'crash' })).body.data
    const r = await createReportIn(t, project)
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, r.id)))
    for (const n of [r.reportNumber, 999]) {
      const res = await t.request('POST', `${base}/bugs/${n}/labels`, { token: owner.token, body: { label_id: a.id } })
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('bug not found')
      expect((await t.request('DELETE', `${base}/bugs/${n}/labels/${a.id}`, { token: owner.token })).status).toBe(404)
    }
  })
})
