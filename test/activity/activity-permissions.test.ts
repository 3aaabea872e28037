import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

const nothing = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false]))

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  const base = `/api/projects/${project.slug}/bugs`
  expect((await t.request('POST', base, { token: owner.token, body: { title: 'Secret boss exploit', description: 'Clip through the wall' } })).status).toBe(201)
  expect((await t.request('PATCH', `${base}/1`, { token: owner.token, body: { is_private: true } })).status).toBe(200)
  expect((await t.request('POST', `${base}/1/comments`, { token: owner.token, body: { body: 'internal: repro on dev kit', is_internal: true } })).status).toBe(201)
})
afterEach(() => t.close())

const activityOf = (token: string, query = '') => t.request('GET', `/api/projects/${project.slug}/activity${query}`, { token })

describe('GET /api/projects/:slug/activity by what the caller may read', () => {
  it('shows report entries (title, private flag, internal comment) to a member with bugs.view', async () => {
    const mate = await addTeammate(t, owner)
    const res = await activityOf(mate.token)
    expect(res.status).toBe(200)
    const entries = res.body.data as { action: string; field: string | null; new_value: string | null; report_title: string | null }[]
    expect(entries.map((e) => e.report_title)).toContain('Secret boss exploit')
    expect(entries).toContainEqual(expect.objectContaining({ field: 'is_private', new_value: 'true' }))
    expect(entries).toContainEqual(expect.objectContaining({ action: 'commented', new_value: 'internal' }))
  })

  it.each([
    ['every permission removed', nothing],
    ['only bugs.view removed', { 'bugs.view': false }],
  ])('shows no report entry to a member with %s (who gets 403 on the report list)', async (_name, overrides) => {
    const mate = await addTeammate(t, owner, { overrides })
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs`, { token: mate.token })).status).toBe(403)
    for (const query of ['', '?action=commented', '?action=updated', '?page=1']) {
      const res = await activityOf(mate.token, query)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ ok: true, data: [] })
    }
  })

  it('still answers 404 to a non-member', async () => {
    const stranger = await createUser(t)
    expect((await activityOf(stranger.token)).status).toBe(404)
  })
})
