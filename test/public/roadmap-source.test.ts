// The roadmap source `published` (issue 28, finding 11c): the spec's roadmap lists the reports in the
// statuses it shows; the roadmap could show only reports flagged `on_roadmap` or carrying a label, and
// a vote on any other open report answered 404. With `source: published` it shows every report the
// public tracker publishes, in the shown statuses, and takes votes on them; `curated` stays the default.
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

const roadmap = async () => {
  const res = await t.request('GET', `/api/roadmap/${project.slug}`)
  expect(res.status).toBe(200)
  return Object.fromEntries((res.body.data.columns as { status: string; bugs: { title: string }[] }[]).map((c) => [c.status, c.bugs.map((b) => b.title)]))
}
const vote = (n: number) => t.request('POST', `/api/roadmap/${project.slug}/bugs/${n}/vote`, { body: { player_id: `p-${n}` } })

describe('roadmap-settings source', () => {
  it('is curated by default: only reports put on the roadmap show, and a vote on another answers 404', async () => {
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all' })
    await putSettings(t, owner, project, 'roadmap-settings', { enabled: true, show_upvotes: true })
    const put = await createReportIn(t, project, { title: 'Put on it' })
    await setReport(t, put, { onRoadmap: true })
    const other = await createReportIn(t, project, { title: 'Published, not put on it' })
    expect((await t.request('GET', `/api/projects/${project.slug}/roadmap-settings`, { token: owner.token })).body.data.source).toBe('curated')
    expect(await roadmap()).toEqual({ open: ['Put on it'], in_progress: [], resolved: [] })
    expect((await vote(other.reportNumber)).status).toBe(404)
  })

  it('published: every report the tracker publishes, in the shown statuses, with votes; private, unpublished, deleted and unshown statuses stay off', async () => {
    await putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', include_auto_filed: false })
    const open = await createReportIn(t, project, { title: 'Sky flickers' })
    const doing = await createReportIn(t, project, { title: 'Save slots vanish' })
    await setReport(t, doing, { status: 'in_progress' })
    const closed = await createReportIn(t, project, { title: 'Closed one' })
    await setReport(t, closed, { status: 'closed' })
    await setReport(t, await createReportIn(t, project, { title: 'Private one' }), { isPrivate: true })
    await setReport(t, await createReportIn(t, project, { title: 'Unpublished one' }), { published: false })
    await setReport(t, await createReportIn(t, project, { title: 'Deleted one' }), { deletedAt: t.clock.now() })
    await createReportIn(t, project, { title: 'Auto-filed one', description: 'NullReferenceException\n--- Stack Trace ---\nPlayer.Update ()' })
    // A label id kept from the curated source is unused under `published`.
    const label = await t.request('POST', `/api/projects/${project.slug}/labels`, { token: owner.token, body: { name: 'Planned' } })
    const res = await t.request('PUT', `/api/projects/${project.slug}/roadmap-settings`, {
      token: owner.token,
      body: { enabled: true, source: 'published', label_id: label.body.data.id, statuses: ['open', 'in_progress'], show_upvotes: true },
    })
    expect([res.status, res.body.data.source]).toEqual([200, 'published'])

    expect(await roadmap()).toEqual({ open: ['Sky flickers'], in_progress: ['Save slots vanish'] })
    const first = await vote(open.reportNumber)
    expect([first.status, first.body.data]).toEqual([200, { upvotes: 1, is_new: true }])
    expect((await vote(doing.reportNumber)).status).toBe(200)
    expect((await vote(closed.reportNumber)).status).toBe(404)

    // The tracker's rules decide: under `manual` only explicitly published reports remain.
    await putSettings(t, owner, project, 'tracker-settings', { publish: 'manual' })
    await setReport(t, doing, { published: true })
    expect(await roadmap()).toEqual({ open: [], in_progress: ['Save slots vanish'] })
    expect((await vote(open.reportNumber)).status).toBe(404)
  })

  it('refuses an unknown source with 400 and keeps the setting', async () => {
    const res = await t.request('PUT', `/api/projects/${project.slug}/roadmap-settings`, { token: owner.token, body: { source: 'everything' } })
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/^source/)
    expect((await t.request('GET', `/api/projects/${project.slug}/roadmap-settings`, { token: owner.token })).body.data.source).toBe('curated')
  })
})
