import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp({ start: '2026-11-20T12:00:00Z' })
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
  for (const title of ['Crash on boot', 'Shader stutter', 'Menu typo', 'Audio pops']) await createReportIn(t, project, { title })
})
afterEach(() => t.close())

const numbers = async (query: string) => {
  const res = await t.request('GET', `${base}/bugs?${query}`, { token: owner.token })
  expect(res.status).toBe(200)
  return { numbers: res.body.data.bugs.map((b: { report_number: number }) => b.report_number), total: res.body.data.total }
}
const patch = (path: string, body: unknown) => t.request('PATCH', `${base}${path}`, { token: owner.token, body })

describe('workflow in the report list, read, create and export', () => {
  it('blocked=true lists reports with an unresolved blocker; the read names the blockers', async () => {
    await t.request('POST', `${base}/bugs/1/dependencies`, { token: owner.token, body: { related_number: 2, relationship: 'blocks' } })
    await t.request('POST', `${base}/bugs/3/dependencies`, { token: owner.token, body: { related_number: 4, relationship: 'blocks' } })
    await patch('/bugs/3', { status: 'resolved' })
    expect(await numbers('blocked=true')).toEqual({ numbers: [2], total: 1 })
    const read = (await t.request('GET', `${base}/bugs/2`, { token: owner.token })).body.data
    expect(read.bug.blocked_by).toEqual([{ id: expect.any(String), number: 1, title: 'Crash on boot', status: 'open' }])
    expect(read.dependencies).toHaveLength(1)
    expect((await t.request('GET', `${base}/bugs/4`, { token: owner.token })).body.data.bug.blocked_by).toEqual([])
    expect((await t.request('GET', `${base}/bugs?blocked=maybe`, { token: owner.token })).status).toBe(400)
  })

  it('overdue=true and sort=due (dated earliest first, then undated newest first)', async () => {
    await patch('/bugs/1/due-date', { due_date: '2026-11-25' })
    await patch('/bugs/2/due-date', { due_date: '2026-11-19T00:00:00Z' })
    await patch('/bugs/3/due-date', { due_date: '2026-11-18T00:00:00Z' })
    await patch('/bugs/3', { status: 'closed' })
    expect(await numbers('overdue=true')).toEqual({ numbers: [2], total: 1 })
    expect((await numbers('sort=due')).numbers).toEqual([3, 2, 1, 4])
    expect((await numbers('sort=due&status=open')).numbers).toEqual([2, 1, 4])
    t.clock.advance(6 * 24 * 3600_000)
    expect((await numbers('overdue=true')).numbers.sort()).toEqual([1, 2])
  })

  it('filters by a select custom field, validates required fields on team-created reports, exports values as columns', async () => {
    const build = (await t.request('POST', `${base}/custom-fields`, { token: owner.token, body: { name: 'Build', field_type: 'select', options: ['beta', 'release'], is_required: true } })).body.data.id
    const notes = (await t.request('POST', `${base}/custom-fields`, { token: owner.token, body: { name: 'Notes', field_type: 'text' } })).body.data.id
    const missing = await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 'New', description: 'd' } })
    expect(missing.status).toBe(400)
    expect(missing.body.error).toBe('Build: a value is required')
    const wrong = await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 'New', description: 'd', custom_fields: { [build]: 'alpha' } } })
    expect(wrong.body.error).toBe('Build: expected one of beta, release')
    const made = await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: 'New, with "quotes"', description: 'd', custom_fields: { [build]: 'beta', [notes]: 'seen twice' } } })
    expect(made.status).toBe(201)
    // SDK submits are not held to required fields.
    const sdk = await t.request('POST', '/api/bugs/submit', { apiKey: project.apiKey, body: { title: 'From the game', description: 'd' } })
    expect(sdk.status).toBe(201)
    await t.request('POST', `${base}/bugs/2/custom-fields`, { token: owner.token, body: { field_id: build, value: 'release' } })
    expect(await numbers(`custom_field=${build}:beta`)).toEqual({ numbers: [5], total: 1 })
    expect((await t.request('GET', `${base}/bugs?custom_field=${notes}:x`, { token: owner.token })).status).toBe(400)
    expect((await t.request('GET', `${base}/bugs?custom_field=${build}:alpha`, { token: owner.token })).status).toBe(400)
    const read = (await t.request('GET', `${base}/bugs/5`, { token: owner.token })).body.data
    expect(read.custom_fields.map((v: { name: string; value: unknown }) => [v.name, v.value])).toEqual([['Build', 'beta'], ['Notes', 'seen twice']])
    const csv = (await t.request('GET', `${base}/bugs/export`, { token: owner.token })).body as string
    const lines = csv.trim().split(/\r?\n/)
    expect(lines[0]!.endsWith(',Build,Notes')).toBe(true)
    expect(lines.find((l) => l.startsWith('5,'))!.endsWith(',beta,seen twice')).toBe(true)
    expect(lines.find((l) => l.startsWith('2,'))!.endsWith(',release,')).toBe(true)
  })
})
