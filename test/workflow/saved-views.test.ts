import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const view = (name: string, extra: Record<string, unknown> = {}, token = owner.token) => t.request('POST', '/api/saved-views', { token, body: { name, project_id: project.id, filters: { status: 'open' }, ...extra } })
const names = async (token = owner.token) => (await t.request('GET', `/api/saved-views?project_id=${project.id}`, { token })).body.data.map((v: { name: string; position: number }) => `${v.position}:${v.name}`)

describe('saved filters', () => {
  it('are private to their owner and only for projects the owner can read', async () => {
    const made = await t.request('POST', '/api/saved-filters', { token: owner.token, body: { name: 'Open crashes', project_id: project.id, filters: { status: 'open', category: 'crash' } } })
    expect(made.status).toBe(201)
    expect(made.body.data.filters).toEqual({ status: 'open', category: 'crash' })
    expect((await t.request('POST', '/api/saved-filters', { token: owner.token, body: { name: 'x', project_id: project.id, filters: { evil: '1' } } })).status).toBe(400)
    const mate = await addTeammate(t, owner)
    expect((await t.request('GET', '/api/saved-filters', { token: mate.token })).body.data).toEqual([])
    expect((await t.request('DELETE', `/api/saved-filters/${made.body.data.id}`, { token: mate.token })).status).toBe(404)
    const stranger = await createUser(t)
    expect((await t.request('POST', '/api/saved-filters', { token: stranger.token, body: { name: 'spy', project_id: project.id, filters: {} } })).status).toBe(404)
    const blind = await addTeammate(t, owner, { overrides: { 'bugs.view': false } })
    expect((await t.request('POST', '/api/saved-filters', { token: blind.token, body: { name: 'spy', project_id: project.id, filters: {} } })).status).toBe(404)
    expect((await t.request('GET', '/api/v1/saved-filters', { token: owner.token })).body.data).toHaveLength(1)
    expect((await t.request('DELETE', `/api/saved-filters/${made.body.data.id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('GET', '/api/saved-filters')).status).toBe(401)
  })
})

describe('saved views', () => {
  it('keep positions gapless: insert at a position, move with PATCH, close the gap on delete', async () => {
    const a = (await view('A')).body.data
    await view('B', { pinned: true, sort_by: 'priority' })
    const c = (await view('C', { position: 0 })).body.data
    expect(await names()).toEqual(['0:C', '1:A', '2:B'])
    expect((await t.request('PATCH', `/api/saved-views/${c.id}`, { token: owner.token, body: { position: 2 } })).body.data.position).toBe(2)
    expect(await names()).toEqual(['0:A', '1:B', '2:C'])
    await t.request('PATCH', `/api/saved-views/${c.id}`, { token: owner.token, body: { position: 99, name: 'C2' } })
    expect(await names()).toEqual(['0:A', '1:B', '2:C2'])
    await t.request('DELETE', `/api/saved-views/${a.id}`, { token: owner.token })
    expect(await names()).toEqual(['0:B', '1:C2'])
    const list = (await t.request('GET', '/api/saved-views', { token: owner.token })).body.data
    expect(list[0]).toMatchObject({ name: 'B', pinned: true, sort_by: 'priority', filters: { status: 'open' } })
  })

  it('keep the list\'s version, platform, player and grouping-key filters and its events and players sorts', async () => {
    const filters = { version: '1.3.0', platform: 'Linux', player: '76561198000000001', fingerprint: '0123456789abcdef0123456789abcdef', regression: 'true', has_screenshot: 'true', q: 'is:unassigned' }
    for (const sort_by of ['last_seen', 'occurrences', 'players']) {
      const made = await view(`By ${sort_by}`, { filters, sort_by })
      expect(made.status).toBe(201)
      expect(made.body.data).toMatchObject({ filters, sort_by })
    }
  })

  it('are private: another member neither sees nor changes them', async () => {
    const a = (await view('Mine')).body.data
    const mate = await addTeammate(t, owner)
    await view('Theirs', {}, mate.token)
    expect(await names(mate.token)).toEqual(['0:Theirs'])
    expect(await names()).toEqual(['0:Mine'])
    expect((await t.request('PATCH', `/api/saved-views/${a.id}`, { token: mate.token, body: { name: 'x' } })).status).toBe(404)
    expect((await t.request('PATCH', `/api/saved-views/${a.id}`, { token: owner.token, body: {} })).status).toBe(400)
    expect((await t.request('POST', '/api/saved-views', { token: owner.token, body: { name: 'x', project_id: project.id, sort_by: 'random' } })).status).toBe(400)
  })
})
