import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { putSettings, setReport } from './public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const roadmap = () => t.request('GET', `/api/roadmap/${project.slug}`)
const patch = async (n: number, body: Record<string, unknown>) => {
  const res = await t.request('PATCH', `/api/projects/${project.slug}/bugs/${n}`, { token: owner.token, body })
  expect(res.status).toBe(200)
}
const titles = (data: { columns: { bugs: { title: string }[] }[] }) => data.columns.flatMap((c) => c.bugs.map((b) => b.title))

describe('GET /api/roadmap/{slug}', () => {
  it('is 404 for an unknown project and while the roadmap is off', async () => {
    expect((await t.request('GET', '/api/roadmap/nope')).status).toBe(404)
    expect((await roadmap()).status).toBe(404)
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    expect((await roadmap()).status).toBe(200)
  })

  it('shows only the reports the team put on it, by the shown statuses, most upvoted first, upvotes only when shown', async () => {
    const a = await createReportIn(t, project, { title: 'Open A', category: 'ui', reporterEmail: 'mail-secret@example.com' })
    const b = await createReportIn(t, project, { title: 'Open B', category: 'audio' })
    const c = await createReportIn(t, project, { title: 'Working on C' })
    const d = await createReportIn(t, project, { title: 'Closed D' })
    const e = await createReportIn(t, project, { title: 'Private E' })
    const f = await createReportIn(t, project, { title: 'Deleted F' })
    const g = await createReportIn(t, project, { title: 'Unpublished G' })
    await createReportIn(t, project, { title: 'Not on the roadmap H' })
    for (const r of [a, b, c, d, e, f, g]) await patch(r.reportNumber, { on_roadmap: true })
    await setReport(t, b, { upvotes: 5 })
    await setReport(t, c, { status: 'in_progress' })
    await setReport(t, d, { status: 'closed' })
    await setReport(t, e, { isPrivate: true })
    await setReport(t, f, { deletedAt: t.clock.now() })
    await patch(g.reportNumber, { published: false })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, title: 'What we are fixing', statuses: ['in_progress', 'open', 'resolved'] })

    const res = await roadmap()
    expect(res.status).toBe(200)
    const at = (n: number) => (res.body.data.columns as { bugs: { report_number: number; updated_at: string }[] }[]).flatMap((col) => col.bugs).find((x) => x.report_number === n)!.updated_at
    const column = (status: string, bugs: unknown[]) => ({ status, bugs, total: bugs.length, page: 1, total_pages: bugs.length ? 1 : 0 })
    // The tracker is off: no card links to a tracker page.
    expect(res.body.data).toEqual({
      settings: { title: 'What we are fixing', description: '', statuses: ['in_progress', 'open', 'resolved'], show_upvotes: false },
      columns: [
        column('in_progress', [{ report_number: c.reportNumber, title: 'Working on C', category: 'other', on_tracker: false, updated_at: at(c.reportNumber) }]),
        column('open', [
          { report_number: b.reportNumber, title: 'Open B', category: 'audio', on_tracker: false, updated_at: at(b.reportNumber) },
          { report_number: a.reportNumber, title: 'Open A', category: 'ui', on_tracker: false, updated_at: at(a.reportNumber) },
        ]),
        column('resolved', []),
      ],
    })
    const raw = JSON.stringify(res.body)
    for (const hidden of ['Closed D', 'Private E', 'Deleted F', 'Unpublished G', 'Not on the roadmap H', 'mail-secret', 'Something broke', a.id]) expect(raw).not.toContain(hidden)

    await putSettings(t, owner, project, 'roadmap-settings', { show_upvotes: true })
    const open = (await roadmap()).body.data.columns[1].bugs
    expect(open.map((x: { upvotes: number }) => x.upvotes)).toEqual([5, 0])
  })

  it('says which cards the tracker shows, under its publish rules', async () => {
    const touched = await createReportIn(t, project, { title: 'Touched' })
    const untouched = await createReportIn(t, project, { title: 'Untouched' })
    for (const r of [touched, untouched]) await patch(r.reportNumber, { on_roadmap: true })
    await patch(touched.reportNumber, { status: 'in_progress' })
    await patch(touched.reportNumber, { status: 'open' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true })
    const cards = (await roadmap()).body.data.columns[0].bugs.map((x: { title: string; on_tracker: boolean }) => [x.title, x.on_tracker])
    expect(cards.sort()).toEqual([
      ['Touched', true],
      ['Untouched', false],
    ])
  })

  it('follows a label instead of the flag when the settings name one, and refuses a label of another project', async () => {
    const label = (await t.request('POST', `/api/projects/${project.slug}/labels`, { token: owner.token, body: { name: 'Roadmap' } })).body.data
    const flagged = await createReportIn(t, project, { title: 'Flagged only' })
    const labelled = await createReportIn(t, project, { title: 'Labelled' })
    await patch(flagged.reportNumber, { on_roadmap: true })
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${labelled.reportNumber}/labels`, { token: owner.token, body: { label_id: label.id } })).status).toBe(200)
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    expect(titles((await roadmap()).body.data)).toEqual(['Flagged only'])
    await putSettings(t, owner, project, 'roadmap-settings', { label_id: label.id })
    expect(titles((await roadmap()).body.data)).toEqual(['Labelled'])

    const other = await createProject(t, owner)
    const foreign = (await t.request('POST', `/api/projects/${other.slug}/labels`, { token: owner.token, body: { name: 'Roadmap' } })).body.data
    const refused = await t.request('PUT', `/api/projects/${project.slug}/roadmap-settings`, { token: owner.token, body: { label_id: foreign.id } })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ ok: false, error: 'label_id: no such label in this project' })
    expect((await t.request('GET', `/api/projects/${project.slug}/roadmap-settings`, { token: owner.token })).body.data.label_id).toBe(label.id)
  })

  it('pages each column 20 at a time; the page applies to the column named', async () => {
    for (let i = 0; i < 45; i++) {
      const r = await createReportIn(t, project, { title: `Open ${i}` })
      await setReport(t, r, { onRoadmap: true, upvotes: i })
    }
    const done = await createReportIn(t, project, { title: 'Done' })
    await setReport(t, done, { onRoadmap: true, status: 'resolved' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    const first = (await roadmap()).body.data.columns
    expect(first.map((c: { bugs: unknown[]; total: number; page: number; total_pages: number }) => [c.bugs.length, c.total, c.page, c.total_pages])).toEqual([
      [20, 45, 1, 3],
      [0, 0, 1, 0],
      [1, 1, 1, 1],
    ])
    expect(first[0].bugs[0].title).toBe('Open 44')
    const third = (await t.request('GET', `/api/roadmap/${project.slug}?status=open&page=3`)).body.data.columns
    expect(third[0].page).toBe(3)
    expect(third[0].bugs.map((b: { title: string }) => b.title)).toEqual(['Open 4', 'Open 3', 'Open 2', 'Open 1', 'Open 0'])
    expect(third[2].bugs.map((b: { title: string }) => b.title)).toEqual(['Done'])
    for (const bad of ['?status=someday', '?status=open&page=0', '?page=x']) expect((await t.request('GET', `/api/roadmap/${project.slug}${bad}`)).status).toBe(400)
  })
})

describe('GET /api/branding/{slug}', () => {
  it('is 404 for an unknown project, empty until set, and shows what the team saved without a credential', async () => {
    expect((await t.request('GET', '/api/branding/nope')).status).toBe(404)
    expect((await t.request('GET', `/api/branding/${project.slug}`)).body).toEqual({
      ok: true,
      data: { company_name: '', logo_url: '', primary_color: '', accent_color: '', support_email: '' },
    })
    const saved = { company_name: 'Pixel Forge', logo_url: 'https://pf.example/logo.png', primary_color: '#123456', accent_color: '#fff', support_email: 'support@pf.example' }
    await putSettings(t, owner, project, 'branding', saved)
    expect((await t.request('GET', `/api/branding/${project.slug}`)).body).toEqual({ ok: true, data: saved })
  })
})
