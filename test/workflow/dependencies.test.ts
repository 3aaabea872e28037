import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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
  for (let i = 0; i < 4; i++) await createReportIn(t, project, { title: `Report ${i + 1}` })
})
afterEach(() => t.close())

const link = (n: number, body: unknown, token = owner.token) => t.request('POST', `${base}/bugs/${n}/dependencies`, { token, body })
const deps = async (n: number) => (await t.request('GET', `${base}/bugs/${n}/dependencies`, { token: owner.token })).body.data as { id: string; relationship: string; report: { number: number } }[]
const seen = async (n: number) => (await deps(n)).map((d) => `${d.relationship} #${d.report.number}`)

describe('report dependencies', () => {
  it('shows one link on both reports, each from its side, and under /api/v1', async () => {
    const res = await link(1, { related_number: 2, relationship: 'blocks' })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ relationship: 'blocks', report: { number: 2, title: 'Report 2', status: 'open' } })
    expect(await seen(1)).toEqual(['blocks #2'])
    expect(await seen(2)).toEqual(['blocked_by #1'])
    const v1 = await t.request('GET', `/api/v1/projects/${project.slug}/bugs/2/dependencies`, { token: owner.token })
    expect(v1.body.data).toHaveLength(1)
    await link(3, { related_number: 2, relationship: 'blocked_by' })
    expect(await seen(2)).toEqual(['blocked_by #1', 'blocks #3'])
  })

  it('refuses self-links (400), other projects (404), duplicates either way of writing (409) and cycles naming the chain (400)', async () => {
    expect((await link(1, { related_number: 1, relationship: 'blocks' })).status).toBe(400)
    const other = await createProject(t, owner)
    await createReportIn(t, other, { title: 'elsewhere' })
    await createReportIn(t, other, { title: 'elsewhere 2' })
    await createReportIn(t, other, { title: 'elsewhere 3' })
    await createReportIn(t, other, { title: 'elsewhere 4' })
    await createReportIn(t, other, { title: 'elsewhere 5' })
    expect((await link(1, { related_number: 5, relationship: 'blocks' })).status).toBe(404)
    expect((await link(1, { related_number: 99, relationship: 'blocks' })).status).toBe(404)
    expect((await link(1, { related_number: 2, relationship: 'blocks' })).status).toBe(201)
    const dup = await link(2, { related_number: 1, relationship: 'blocked_by' })
    expect(dup.status).toBe(409)
    expect((await link(2, { related_number: 3, relationship: 'blocks' })).status).toBe(201)
    const cycle = await link(3, { related_number: 1, relationship: 'blocks' })
    expect(cycle.status).toBe(400)
    expect(cycle.body.error).toBe('that link would make a cycle: #3 blocks #1 blocks #2 blocks #3')
    expect((await link(1, { related_number: 2, relationship: 'sideways' })).status).toBe(400)
    expect((await link(1, { relationship: 'blocks' })).body.error).toContain('related_number is required')
    expect(await seen(1)).toEqual(['blocks #2'])
  })

  it('deletes a link of the project (404 for unknown ids), with activity on both reports', async () => {
    const { id } = (await link(1, { related_number: 2, relationship: 'blocks' })).body.data
    expect((await t.request('DELETE', `${base}/dependencies/nope`, { token: owner.token })).status).toBe(404)
    const other = await createProject(t, owner)
    expect((await t.request('DELETE', `/api/projects/${other.slug}/dependencies/${id}`, { token: owner.token })).status).toBe(404)
    expect((await t.request('DELETE', `${base}/dependencies/${id}`, { token: owner.token })).status).toBe(200)
    expect(await seen(1)).toEqual([])
    const activity = (await t.request('GET', `${base}/bugs/2/activity`, { token: owner.token })).body.data.map((a: { action: string }) => a.action)
    expect(activity).toEqual(expect.arrayContaining(['dependency_added', 'dependency_removed']))
  })

  it('needs bugs.edit to link and bugs.view to read', async () => {
    const viewer = await addTeammate(t, owner, { overrides: { 'bugs.edit': false } })
    expect((await link(1, { related_number: 2, relationship: 'blocks' }, viewer.token)).status).toBe(403)
    const none = await addTeammate(t, owner, { overrides: { 'bugs.view': false } })
    expect((await t.request('GET', `${base}/bugs/1/dependencies`, { token: none.token })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await link(1, { related_number: 2, relationship: 'blocks' }, stranger.token)).status).toBe(404)
  })
})
