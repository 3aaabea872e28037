import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from '../team/team-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { plan: 'pro' })
})
afterEach(() => t.close())

const perms = async (u: TestUser) => (await t.request('GET', '/api/permissions', { token: u.token })).body.data

describe('GET /api/permissions/available', () => {
  it('serves groups with named keys and the role defaults', async () => {
    const res = await t.request('GET', '/api/permissions/available', { token: owner.token })
    expect(res.status).toBe(200)
    const { groups, role_defaults } = res.body.data
    expect(groups.map((g: any) => g.key)).toEqual(['bugs', 'comments', 'labels', 'project', 'team', 'analytics', 'billing'])
    expect(groups[0]).toMatchObject({ key: 'bugs', name: 'Bug reports' })
    expect(groups[0].permissions[0]).toEqual({ key: 'bugs.view', name: 'View reports', description: expect.any(String) })
    expect(groups.flatMap((g: any) => g.permissions.map((p: any) => p.key))).toHaveLength(14)
    expect(Object.values(role_defaults.owner).every(Boolean)).toBe(true)
    expect(Object.values(role_defaults.admin).every(Boolean)).toBe(true)
    expect(Object.entries(role_defaults.member).filter(([, v]) => !v).map(([k]) => k)).toEqual([
      'bugs.delete',
      'project.settings',
      'project.integrations',
      'webhooks.manage',
      'team.invite',
      'team.permissions',
      'billing.manage',
    ])
    expect((await t.request('GET', '/api/permissions/available')).status).toBe(401)
  })
})

describe('GET /api/permissions', () => {
  it('answers the effective set in the account you work in', async () => {
    const member = await addMember(t, owner, 'member', { overrides: { 'bugs.delete': true, 'bugs.view': false } })
    expect(await perms(owner)).toMatchObject({ role: 'owner', permissions: { 'billing.manage': true } })
    const mine = await perms(member)
    expect(mine.role).toBe('member')
    expect(mine.permissions).toMatchObject({ 'bugs.delete': true, 'bugs.view': false, 'bugs.create': true, 'team.invite': false })
  })
})

describe('PUT /api/account/members/:userId/permissions', () => {
  const put = (by: TestUser, userId: string, body: unknown) => t.request('PUT', `/api/account/members/${userId}/permissions`, { token: by.token, body })

  it('sets keys and groups (a key wins over its group), keeps earlier overrides unless reset', async () => {
    const m = await addMember(t, owner, 'member')
    const first = await put(owner, m.user.id, { groups: { team: true }, permissions: { 'team.permissions': false } })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ user_id: m.user.id, role: 'member', overrides: { 'team.invite': true, 'team.permissions': false } })
    expect((await perms(m)).permissions).toMatchObject({ 'team.invite': true, 'team.permissions': false })

    await put(owner, m.user.id, { permissions: { 'bugs.delete': true } })
    expect((await perms(m)).permissions).toMatchObject({ 'team.invite': true, 'bugs.delete': true })

    const reset = await put(owner, m.user.id, { reset: true, permissions: { 'bugs.view': false } })
    expect(reset.body.data.overrides).toEqual({ 'bugs.view': false })
    expect((await perms(m)).permissions).toMatchObject({ 'team.invite': false, 'bugs.delete': false, 'bugs.view': false })
    expect((await t.request('GET', `/api/account/members/${m.user.id}/permissions`, { token: m.token })).body.data.overrides).toEqual({ 'bugs.view': false })

    const audits = (await sqlRows(t, "SELECT action, target FROM audit_log WHERE action LIKE 'permissions.%'"))
    expect(audits).toEqual(Array(3).fill({ action: 'permissions.updated', target: m.user.id }))
  })

  it('an override takes effect on the guarded route at once', async () => {
    const m = await addMember(t, owner, 'member')
    expect((await t.request('POST', '/api/account/invites', { token: m.token, body: { email: 'x@example.com' } })).status).toBe(403)
    await put(owner, m.user.id, { permissions: { 'team.invite': true } })
    expect((await t.request('POST', '/api/account/invites', { token: m.token, body: { email: 'x@example.com' } })).status).toBe(201)
  })

  it.each([
    [{ permissions: { 'bugs.fly': true } }, 'unknown permission bugs.fly'],
    [{ groups: { rockets: true } }, 'unknown permission group rockets'],
  ])('rejects %j with 400', async (body, message) => {
    const m = await addMember(t, owner, 'member')
    const res = await put(owner, m.user.id, body)
    expect([res.status, res.body.error]).toEqual([400, message])
    expect((await put(owner, m.user.id, { permissions: { 'bugs.view': 'yes' } })).status).toBe(400)
  })

  const scenarios: [string, 'owner' | 'admin' | 'member' | 'granted-member', 'owner' | 'admin' | 'member', number, string?][] = [
    ['owner edits an admin → 200', 'owner', 'admin', 200],
    ['owner edits a member → 200', 'owner', 'member', 200],
    ['admin edits a member → 200', 'admin', 'member', 200],
    ['member with team.permissions edits a member → 200', 'granted-member', 'member', 200],
    ['admin edits an admin → 403', 'admin', 'admin', 403, "only the account owner can edit an admin's permissions"],
    ['admin edits the owner → 403', 'admin', 'owner', 403, "the account owner's permissions cannot be edited"],
    ['owner edits the owner → 403', 'owner', 'owner', 403, "the account owner's permissions cannot be edited"],
    ['member edits a member → 403', 'member', 'member', 403, 'you need the team.permissions permission'],
  ]
  it.each(scenarios)('%s', async (_, actorRole, targetRole, status, message) => {
    const actor =
      actorRole === 'owner' ? owner : await addMember(t, owner, actorRole === 'granted-member' ? 'member' : actorRole, { overrides: actorRole === 'granted-member' ? { 'team.permissions': true } : {} })
    const target = targetRole === 'owner' ? owner : await addMember(t, owner, targetRole)
    for (const [method, body] of [
      ['PUT', { permissions: { 'bugs.view': false } }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/api/account/members/${target.user.id}/permissions`, { token: actor.token, body })
      expect(res.status).toBe(status)
      if (message) expect(res.body.error).toBe(message)
    }
  })

  it('DELETE resets to the role defaults; unknown members 404', async () => {
    const m = await addMember(t, owner, 'member', { overrides: { 'billing.manage': true } })
    const res = await t.request('DELETE', `/api/account/members/${m.user.id}/permissions`, { token: owner.token })
    expect(res.body.data).toMatchObject({ overrides: {}, permissions: { 'billing.manage': false } })
    expect((await t.request('DELETE', '/api/account/members/nobody/permissions', { token: owner.token })).status).toBe(404)
    expect(((await sqlRows(t, 'SELECT action FROM audit_log ORDER BY seq DESC LIMIT 1'))[0] as { action: string }).action).toBe('permissions.reset')
  })
})

describe('project-scoped permission views', () => {
  it('read and edit the same account-wide overrides', async () => {
    const project = await createProject(t, owner)
    const m = await addMember(t, owner, 'member')
    const stranger = await createUser(t)
    const base = `/api/projects/${project.slug}/permissions`

    const view = (await t.request('GET', base, { token: m.token })).body.data
    expect(view).toMatchObject({ role: 'member', permissions: { 'bugs.view': true } })
    expect(view.members.map((x: any) => [x.user_id, x.role])).toEqual([
      [owner.user.id, 'owner'],
      [m.user.id, 'member'],
    ])
    expect((await t.request('GET', base, { token: stranger.token })).status).toBe(404)

    expect((await t.request('PUT', `${base}/${m.user.id}`, { token: owner.token, body: { permissions: { 'labels.manage': false } } })).status).toBe(200)
    expect((await perms(m)).permissions['labels.manage']).toBe(false)
    expect((await t.request('PUT', base, { token: owner.token, body: { user_id: m.user.id, groups: { billing: true } } })).status).toBe(200)
    expect((await t.request('GET', `${base}/${m.user.id}`, { token: m.token })).body.data.overrides).toEqual({ 'labels.manage': false, 'billing.manage': true })

    expect((await t.request('PUT', `${base}/${m.user.id}`, { token: m.token, body: { permissions: { 'bugs.delete': true } } })).status).toBe(403)
    expect((await t.request('DELETE', `${base}?user_id=${m.user.id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('GET', `${base}/${m.user.id}`, { token: owner.token })).body.data.overrides).toEqual({})
    await t.request('PUT', `${base}/${m.user.id}`, { token: owner.token, body: { permissions: { 'bugs.view': false } } })
    expect((await t.request('DELETE', `${base}/${m.user.id}`, { token: owner.token })).body.data.overrides).toEqual({})
  })
})
