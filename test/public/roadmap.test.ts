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
  project = createProject(t, owner)
})
afterEach(() => t.close())

const roadmap = () => t.request('GET', `/api/roadmap/${project.slug}`)

describe('GET /api/roadmap/{slug}', () => {
  it('is 404 for an unknown project and while the roadmap is off', async () => {
    expect((await t.request('GET', '/api/roadmap/nope')).status).toBe(404)
    expect((await roadmap()).status).toBe(404)
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    expect((await roadmap()).status).toBe(200)
  })

  it('groups live public reports by the shown statuses, most upvoted first, upvotes only when shown', async () => {
    const a = createReportIn(t, project, { title: 'Open A', category: 'ui', reporterEmail: 'mail-secret@example.com' })
    const b = createReportIn(t, project, { title: 'Open B', category: 'audio' })
    const c = createReportIn(t, project, { title: 'Working on C' })
    const d = createReportIn(t, project, { title: 'Closed D' })
    const e = createReportIn(t, project, { title: 'Private E' })
    const f = createReportIn(t, project, { title: 'Deleted F' })
    setReport(t, b, { upvotes: 5 })
    setReport(t, c, { status: 'in_progress' })
    setReport(t, d, { status: 'closed' })
    setReport(t, e, { isPrivate: true })
    setReport(t, f, { deletedAt: t.clock.now() })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, title: 'What we are fixing', statuses: ['in_progress', 'open', 'resolved'] })

    const res = await roadmap()
    expect(res.status).toBe(200)
    const updated = a.updatedAt.toISOString()
    expect(res.body.data).toEqual({
      settings: { title: 'What we are fixing', description: '', statuses: ['in_progress', 'open', 'resolved'], show_upvotes: false },
      columns: [
        { status: 'in_progress', bugs: [{ report_number: c.reportNumber, title: 'Working on C', category: 'other', updated_at: updated }] },
        {
          status: 'open',
          bugs: [
            { report_number: b.reportNumber, title: 'Open B', category: 'audio', updated_at: updated },
            { report_number: a.reportNumber, title: 'Open A', category: 'ui', updated_at: updated },
          ],
        },
        { status: 'resolved', bugs: [] },
      ],
    })
    const raw = JSON.stringify(res.body)
    for (const hidden of ['Closed D', 'Private E', 'Deleted F', 'mail-secret', 'Something broke', a.id]) expect(raw).not.toContain(hidden)

    await putSettings(t, owner, project, 'roadmap-settings', { show_upvotes: true })
    const open = (await roadmap()).body.data.columns[1].bugs
    expect(open.map((x: { upvotes: number }) => x.upvotes)).toEqual([5, 0])
  })

  it('caps each column at 100 reports', async () => {
    for (let i = 0; i < 101; i++) createReportIn(t, project)
    const extra = createReportIn(t, project)
    setReport(t, extra, { status: 'resolved' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true })
    const columns = (await roadmap()).body.data.columns
    expect(columns.map((c: { bugs: unknown[] }) => c.bugs.length)).toEqual([100, 0, 1])
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
