import { and, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { auditLog } from '../../src/modules/activity/activity.table'
import { DAY, HOUR } from '../../src/lib/clock'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, putSettings, setReport } from '../public/public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const base = () => `/api/projects/${project.slug}/changelog`
const create = async (body: Record<string, unknown>, token = owner.token) => {
  const res = await t.request('POST', base(), { token, body })
  t.clock.advance(HOUR)
  return res
}
const publicList = () => t.request('GET', base())
const teamList = () => t.request('GET', `${base()}/all`, { token: owner.token })

describe('changelog entries', () => {
  it('creates drafts and published entries; the public read shows only published ones, newest first, without a credential', async () => {
    const draft = await create({ title: 'Draft notes', body: 'wip' })
    expect(draft.status).toBe(201)
    expect(draft.body).toEqual({ ok: true, data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/) } })
    const v1 = await create({ title: 'Patch 1.0', body: 'First fixes', version: '1.0', publish: true })
    const v2 = await create({ title: 'Patch 1.1', version: '1.1', publish: true })

    const res = await publicList()
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { id: v2.body.data.id, title: 'Patch 1.1', body: '', version: '1.1', published_at: '2026-01-05T14:00:00.000Z' },
      { id: v1.body.data.id, title: 'Patch 1.0', body: 'First fixes', version: '1.0', published_at: '2026-01-05T13:00:00.000Z' },
    ])
    const all = await teamList()
    expect(all.body.data.map((e: { title: string }) => e.title)).toEqual(['Patch 1.1', 'Patch 1.0', 'Draft notes'])
    expect(all.body.data[2]).toMatchObject({ id: draft.body.data.id, published_at: null, created_at: '2026-01-05T12:00:00.000Z' })
  })

  it('shows at most 50 published entries publicly', async () => {
    for (let i = 0; i < 52; i++) await create({ title: `Entry ${i}`, publish: true })
    const res = await publicList()
    expect(res.body.data).toHaveLength(50)
    expect(res.body.data[0].title).toBe('Entry 51')
  })

  it('answers 404 publicly for an unknown project', async () => {
    expect((await t.request('GET', '/api/projects/nope/changelog')).status).toBe(404)
  })

  it('guards the team routes: 401 without a session, 404 for non-members, 403 to read drafts or write without project.settings', async () => {
    const stranger = await createUser(t)
    const reader = await addMember(t, owner, { 'project.settings': false })
    const { body } = await create({ title: 'Entry' })
    const id = body.data.id
    expect((await t.request('POST', base(), { body: { title: 'x' } })).status).toBe(401)
    expect((await t.request('GET', `${base()}/all`)).status).toBe(401)
    expect((await t.request('GET', `${base()}/all`, { token: stranger.token })).status).toBe(404)
    expect((await t.request('POST', base(), { token: stranger.token, body: { title: 'x' } })).status).toBe(404)
    for (const [method, path, b] of [
      ['GET', `${base()}/all`, undefined],
      ['POST', base(), { title: 'x' }],
      ['PATCH', `${base()}/${id}`, { title: 'y' }],
      ['DELETE', `${base()}/${id}`, undefined],
      ['POST', `${base()}/auto-generate`, undefined],
    ] as const) {
      expect((await t.request(method, path, { token: reader.token, body: b })).status, `${method} ${path}`).toBe(403)
    }
  })

  it.each([
    [{}, 'title is required'],
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{ title: 'ok', body: 'x'.repeat(50_001) }, 'body'],
    [{ title: 'ok', version: 'v'.repeat(51) }, 'version'],
    [{ title: 'ok', publish: 'yes' }, 'publish'],
  ])('refuses %# with 400 naming the field', async (body, message) => {
    const res = await t.request('POST', base(), { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
  })

  it('publishes, edits and unpublishes with PATCH; re-publishing keeps the first publication date', async () => {
    const id = (await create({ title: 'Notes' })).body.data.id
    const published = await t.request('PATCH', `${base()}/${id}`, { token: owner.token, body: { publish: true, version: '2.0' } })
    expect(published.status).toBe(200)
    expect(published.body.data).toMatchObject({ id, title: 'Notes', version: '2.0', published_at: '2026-01-05T13:00:00.000Z' })
    t.clock.advance(HOUR)
    const edited = await t.request('PATCH', `${base()}/${id}`, { token: owner.token, body: { title: 'Notes 2.0', publish: true } })
    expect(edited.body.data).toMatchObject({ title: 'Notes 2.0', published_at: '2026-01-05T13:00:00.000Z', updated_at: '2026-01-05T14:00:00.000Z' })
    expect((await publicList()).body.data.map((e: { title: string }) => e.title)).toEqual(['Notes 2.0'])
    const hidden = await t.request('PATCH', `${base()}/${id}`, { token: owner.token, body: { publish: false } })
    expect(hidden.body.data.published_at).toBeNull()
    expect((await publicList()).body.data).toEqual([])
    const audit = await t.deps.db.read((q) => q.select().from(auditLog).where(and(eq(auditLog.projectId, project.id), eq(auditLog.target, id))))
    expect(audit.map((a) => a.action)).toEqual(['changelog.created', 'changelog.updated', 'changelog.updated', 'changelog.updated'])
  })

  it('answers 400 to an empty PATCH and 404 for unknown entries or another project\'s entry', async () => {
    const id = (await create({ title: 'Notes' })).body.data.id
    expect((await t.request('PATCH', `${base()}/${id}`, { token: owner.token, body: {} })).body).toEqual({ ok: false, error: 'no valid fields to update' })
    const other = await createProject(t, owner)
    const foreign = `/api/projects/${other.slug}/changelog/${id}`
    expect((await t.request('PATCH', foreign, { token: owner.token, body: { title: 'x' } })).status).toBe(404)
    expect((await t.request('DELETE', foreign, { token: owner.token })).status).toBe(404)
    expect((await t.request('PATCH', `${base()}/00000000-0000-4000-8000-000000000000`, { token: owner.token, body: { title: 'x' } })).status).toBe(404)
  })

  it('deletes an entry', async () => {
    const id = (await create({ title: 'Gone soon', publish: true })).body.data.id
    const res = await t.request('DELETE', `${base()}/${id}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Changelog entry deleted' } })
    expect((await publicList()).body.data).toEqual([])
    expect((await t.request('DELETE', `${base()}/${id}`, { token: owner.token })).status).toBe(404)
  })
})

describe('POST /changelog/auto-generate', () => {
  const generate = () => t.request('POST', `${base()}/auto-generate`, { token: owner.token })

  it('answers 400 when nothing is resolved', async () => {
    await createReportIn(t, project)
    const res = await generate()
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ ok: false, error: 'nothing resolved since the last entry' })
  })

  it('drafts an entry of public resolved and closed reports grouped by category, then only newer ones after a publish', async () => {
    const crash = await createReportIn(t, project, { title: 'Crash on start', category: 'crash' })
    const ui = await createReportIn(t, project, { title: 'Button overlaps', category: 'ui' })
    const crash2 = await createReportIn(t, project, { title: 'Crash in menu', category: 'crash' })
    await createReportIn(t, project, { title: 'Still open', category: 'crash' })
    const secret = await createReportIn(t, project, { title: 'Private fix', category: 'crash' })
    const gone = await createReportIn(t, project, { title: 'Deleted fix', category: 'crash' })
    await setReport(t, crash, { status: 'resolved' })
    await setReport(t, ui, { status: 'closed' })
    await setReport(t, crash2, { status: 'resolved' })
    await setReport(t, secret, { status: 'resolved', isPrivate: true })
    await setReport(t, gone, { status: 'resolved', deletedAt: t.clock.now() })
    // Every report not private is public under `publish: all` (the mode rules are tested below).
    await putSettings(t, owner, project, 'tracker-settings', { publish: 'all' })

    const res = await generate()
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ title: 'Bug fixes 2026-01-05', version: '', published_at: null })
    expect(res.body.data.body).toBe('## Crash\n- #1 Crash on start\n- #3 Crash in menu\n\n## UI\n- #2 Button overlaps')
    expect((await publicList()).body.data).toEqual([])

    await t.request('PATCH', `${base()}/${res.body.data.id}`, { token: owner.token, body: { publish: true } })
    t.clock.advance(DAY)
    expect((await generate()).status).toBe(400)
    const later = await createReportIn(t, project, { title: 'Audio pops', category: 'audio' })
    await setReport(t, later, { status: 'resolved', updatedAt: t.clock.now() })
    const next = await generate()
    expect(next.status).toBe(201)
    expect(next.body.data.body).toBe('## Audio\n- #7 Audio pops')
  })

  it("lists only what the public pages show under the tracker's publish rules", async () => {
    const touched = await createReportIn(t, project, { title: 'Resolved by the team', category: 'ui' })
    const untouched = await createReportIn(t, project, { title: 'Resolved behind the scenes', category: 'ui' })
    const published = await createReportIn(t, project, { title: 'Published explicitly', category: 'ui' })
    expect((await t.request('PATCH', `/api/projects/${project.slug}/bugs/${touched.reportNumber}`, { token: owner.token, body: { status: 'resolved' } })).status).toBe(200)
    await setReport(t, untouched, { status: 'resolved' })
    await setReport(t, published, { status: 'resolved', published: true })
    // A new project's mode is `triaged`: a status change by the team counts, a resolution by nobody does not.
    expect((await generate()).body.data.body).toBe('## UI\n- #1 Resolved by the team\n- #3 Published explicitly')
  })
})
