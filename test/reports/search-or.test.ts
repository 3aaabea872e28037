import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  await createReportIn(t, project, { title: 'Shadows flicker on water', description: 'Lighting bug near lava' })
  await createReportIn(t, project, { title: 'Crash on load', description: 'The game closes' })
  await createReportIn(t, project, { title: 'Audio stutters', description: 'Music skips in menus' })
})
afterEach(() => t.close())

const titles = (res: { body: any }) => (res.body.data.bugs as { title: string }[]).map((b) => b.title).sort()
const q = (text: string) => `?q=${encodeURIComponent(text)}`

describe('q with OR', () => {
  it.each([
    ['shadows OR crash', ['Crash on load', 'Shadows flicker on water']],
    ['shadows OR crash OR music', ['Audio stutters', 'Crash on load', 'Shadows flicker on water']],
    ['game closes OR lava', ['Crash on load']],
    ['shadows OR crash -lava', ['Crash on load']],
    ['shadows or crash', []],
  ])('the team list finds %s', async (text, expected) => {
    const res = await t.request('GET', `/api/projects/${project.slug}/bugs${q(text)}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(titles(res)).toEqual(expected)
    expect(res.body.data.total).toBe(expected.length)
  })

  it('works on the public tracker search too', async () => {
    // Every report public, as before the publish modes (issue 25).
    const put = await t.request('PUT', `/api/projects/${project.slug}/tracker-settings`, { token: owner.token, body: { enabled: true, allow_search: true, publish: 'all' } })
    expect(put.status).toBe(200)
    const res = await t.request('GET', `/api/tracker/${project.slug}${q('shadows OR crash')}`)
    expect(res.status).toBe(200)
    expect(titles(res)).toEqual(['Crash on load', 'Shadows flicker on water'])
  })

  it('is described on the q parameter of the OpenAPI document', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body
    const params = doc.paths['/api/projects/{slug}/bugs'].get.parameters as { name: string; description?: string; schema?: { description?: string } }[]
    const param = params.find((p) => p.name === 'q')!
    expect(param.description ?? param.schema?.description).toMatch(/`OR` in capitals between two words/)
  })
})

describe('q with a NUL (the fuzz test: "unterminated string", a 500)', () => {
  it('searches the words around it on the team list, the public tracker and its HTML page', async () => {
    const put = await t.request('PUT', `/api/projects/${project.slug}/tracker-settings`, { token: owner.token, body: { enabled: true, allow_search: true } })
    expect(put.status).toBe(200)
    const team = await t.request('GET', `/api/projects/${project.slug}/bugs${q('"shadows\u0000flicker"')}`, { token: owner.token })
    expect(team.status).toBe(200)
    expect(titles(team)).toEqual(['Shadows flicker on water'])
    const tracker = await t.request('GET', `/api/tracker/${project.slug}${q('a\u0000b OR *')}`)
    expect(tracker.status).toBe(200)
    const page = await t.request('GET', `/tracker/${project.slug}${q('crash\u0000')}`)
    expect(page.status).toBe(200)
  })
})
