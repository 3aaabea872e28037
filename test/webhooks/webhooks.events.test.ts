import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { createWebhook } from './helpers'
import { startReceiver } from './receiver'

// Events as the real routes emit them: team create, single and bulk update, comments.
let t: TestApp
let owner: TestUser
let project: TestProject
let r: ReturnType<typeof startReceiver>

beforeEach(async () => {
  t = createTestApp({ env: { GLITCHBOX_ALLOW_PRIVATE_TARGETS: 'true' } })
  owner = await createUser(t)
  project = await createProject(t, owner)
  r = startReceiver()
  await createWebhook(t, owner, project, { url: r.url, secret: 's' })
})
afterEach(() => {
  r.stop()
  t.close()
})

const api = (method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${project.slug}${path}`, { token: owner.token, body })

describe('events from the API', () => {
  it('sends bug_created, bug_updated with the new state and comment_added with its report', async () => {
    const created = await api('POST', '/bugs', { title: 'Falls through floor', description: 'On level 3' })
    expect(created.status).toBe(201)
    expect((await api('PATCH', '/bugs/1', { status: 'in_progress' })).status).toBe(200)
    expect((await api('POST', '/bugs/1/comments', { body: 'Repro on PS5' })).status).toBe(201)
    await t.runner.drain()
    const byEvent = Object.fromEntries(r.received.map((x) => [x.json.event, x.json.data]))
    expect(Object.keys(byEvent).sort()).toEqual(['bug_created', 'bug_updated', 'comment_added'])
    expect(byEvent.bug_created).toMatchObject({ id: created.body.data.id, title: 'Falls through floor', status: 'open', project_slug: project.slug })
    expect(byEvent.bug_updated).toMatchObject({ id: created.body.data.id, status: 'in_progress', project_slug: project.slug })
    expect(byEvent.comment_added).toMatchObject({ body: 'Repro on PS5', report: { id: created.body.data.id }, project_slug: project.slug })
  })

  it('links every event back to the report page in the dashboard (`url`)', async () => {
    await api('POST', '/bugs', { title: 'Falls through floor', description: 'On level 3' })
    await api('POST', '/bugs', { title: 'Wrong tint', description: 'Level 4' })
    await api('PATCH', '/bugs/2', { priority: 'high' })
    await api('POST', '/bugs/2/comments', { body: 'Seen on Deck' })
    await t.runner.drain()
    const page = (n: number) => `http://glitchbox.test/projects/${project.slug}/reports/${n}`
    const sent = r.received.map((x) => x.json)
    expect(sent.filter((j) => j.event === 'bug_created').map((j) => j.data.url).sort()).toEqual([page(1), page(2)])
    expect(sent.find((j) => j.event === 'bug_updated').data.url).toBe(page(2))
    const comment = sent.find((j) => j.event === 'comment_added').data
    expect(comment.report.url).toBe(page(2))
  })

  it('sends one bug_updated per report of a bulk update, each with its own delivery id', async () => {
    for (let i = 0; i < 3; i++) await api('POST', '/bugs', { title: `Bug ${i}`, description: 'x' })
    await t.runner.drain()
    r.received.length = 0
    expect((await api('PATCH', '/bugs/bulk', { bug_numbers: [1, 2, 3], priority: 'high' })).status).toBe(200)
    await t.runner.drain()
    expect(r.received.map((x) => x.json.event)).toEqual(['bug_updated', 'bug_updated', 'bug_updated'])
    expect(new Set(r.received.map((x) => x.json.data.report_number))).toEqual(new Set([1, 2, 3]))
    expect(new Set(r.received.map((x) => x.headers.get('x-glitchbox-delivery'))).size).toBe(3)
  })

  it('sends nothing when a request fails validation', async () => {
    await api('POST', '/bugs', { title: 'Only title' })
    await api('PATCH', '/bugs/1', { status: 'exploded' })
    await t.runner.drain()
    expect(r.received).toHaveLength(0)
  })
})
