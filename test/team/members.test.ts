import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from './team-helpers'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { plan: 'pro' })
})
afterEach(() => t.close())

const roleOf = async (userId: string) => {
  const members = (await t.request('GET', '/api/account/members', { token: owner.token })).body.data.members as { user_id: string; role: string }[]
  return members.find((m) => m.user_id === userId)?.role ?? null
}
const lastAudit = async () => (await sqlRows(t, 'SELECT action, actor_id, target, details FROM audit_log ORDER BY seq DESC LIMIT 1'))[0] as Record<string, string>

describe('GET /api/account/members', () => {
  it('lists the roster and pending invitations to every member', async () => {
    const member = await addMember(t, owner, 'member')
    await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'x@example.com' } })
    const res = await t.request('GET', '/api/account/members', { token: member.token })
    expect(res.status).toBe(200)
    expect(res.body.data.members).toEqual([
      { user_id: owner.user.id, email: owner.user.email, name: owner.user.name, role: 'owner', project_access: 'all', joined_at: expect.any(String) },
      { user_id: member.user.id, email: member.user.email, name: member.user.name, role: 'member', project_access: 'all', joined_at: expect.any(String) },
    ])
    expect(res.body.data.pending_invitations.map((p: any) => p.email)).toEqual(['x@example.com'])
  })
})

describe('PATCH /api/account/members/:userId', () => {
  const scenarios: [string, 'owner' | 'admin' | 'member', 'owner' | 'admin' | 'member', 'admin' | 'member', number, string?][] = [
    ['owner promotes a member → 200', 'owner', 'member', 'admin', 200],
    ['owner demotes an admin → 200', 'owner', 'admin', 'member', 200],
    ['admin promotes a member → 403', 'admin', 'member', 'admin', 403, 'only the account owner can promote or demote admins'],
    ['admin demotes an admin → 403', 'admin', 'admin', 'member', 403, 'only the account owner can promote or demote admins'],
    ['admin changes the owner → 403', 'admin', 'owner', 'member', 403, "the account owner's role cannot be changed"],
    ['member promotes a member → 403', 'member', 'member', 'admin', 403, "only the account owner or an admin can change members' roles"],
  ]
  it.each(scenarios)('%s', async (_, actorRole, targetRole, role, status, message) => {
    const actor = actorRole === 'owner' ? owner : await addMember(t, owner, actorRole)
    const target = targetRole === 'owner' ? owner : await addMember(t, owner, targetRole)
    const res = await t.request('PATCH', `/api/account/members/${target.user.id}`, { token: actor.token, body: { role } })
    expect(res.status).toBe(status)
    if (message) expect(res.body.error).toBe(message)
    expect(await roleOf(target.user.id)).toBe(status === 200 ? role : targetRole)
    if (status === 200) expect(await lastAudit()).toMatchObject({ action: 'member.role_changed', actor_id: actor.user.id, target: target.user.id })
  })

  it('the owner changing their own role is refused; unknown members 404; bad roles 400', async () => {
    expect((await t.request('PATCH', `/api/account/members/${owner.user.id}`, { token: owner.token, body: { role: 'member' } })).status).toBe(403)
    expect((await t.request('PATCH', '/api/account/members/nobody', { token: owner.token, body: { role: 'member' } })).status).toBe(404)
    const m = await addMember(t, owner, 'member')
    expect((await t.request('PATCH', `/api/account/members/${m.user.id}`, { token: owner.token, body: { role: 'owner' } })).status).toBe(400)
  })

  it('a changed role changes what the member may do', async () => {
    const m = await addMember(t, owner, 'member')
    expect((await t.request('POST', '/api/account/invites', { token: m.token, body: { email: 'z@example.com' } })).status).toBe(403)
    await t.request('PATCH', `/api/account/members/${m.user.id}`, { token: owner.token, body: { role: 'admin' } })
    expect((await t.request('POST', '/api/account/invites', { token: m.token, body: { email: 'z@example.com' } })).status).toBe(201)
  })
})

describe('DELETE /api/account/members/:userId', () => {
  const scenarios: [string, 'owner' | 'admin' | 'member', 'owner' | 'admin' | 'member', number, string?][] = [
    ['owner removes a member → 200', 'owner', 'member', 200],
    ['owner removes an admin → 200', 'owner', 'admin', 200],
    ['admin removes a member → 200', 'admin', 'member', 200],
    ['admin removes an admin → 403', 'admin', 'admin', 403, 'only the account owner can remove an admin'],
    ['admin removes the owner → 403', 'admin', 'owner', 403, 'the account owner cannot be removed'],
    ['member removes a member → 403', 'member', 'member', 403, 'only the account owner or an admin can remove members'],
  ]
  it.each(scenarios)('%s', async (_, actorRole, targetRole, status, message) => {
    const actor = actorRole === 'owner' ? owner : await addMember(t, owner, actorRole)
    const target = targetRole === 'owner' ? owner : await addMember(t, owner, targetRole)
    const res = await t.request('DELETE', `/api/account/members/${target.user.id}`, { token: actor.token })
    expect(res.status).toBe(status)
    if (message) expect(res.body.error).toBe(message)
    expect(await roleOf(target.user.id)).toBe(status === 200 ? null : targetRole)
  })

  it('removes the member from every project of the account and sends them back to their own account', async () => {
    const a = await createProject(t, owner)
    const b = await createProject(t, owner)
    const m = await addMember(t, owner, 'member')
    for (const p of [a, b]) expect((await t.request('GET', `/api/projects/${p.slug}/members`, { token: m.token })).status).toBe(200)
    expect((await t.request('DELETE', `/api/account/members/${m.user.id}`, { token: owner.token })).body.data).toEqual({ message: 'Member removed' })
    for (const p of [a, b]) expect((await t.request('GET', `/api/projects/${p.slug}/members`, { token: m.token })).status).toBe(404)
    const own = (await t.request('GET', '/api/account', { token: m.token })).body.data
    expect(own.your_role).toBe('owner')
    expect(own.id).not.toBe(owner.account.id)
    expect(await lastAudit()).toMatchObject({ action: 'member.removed', target: m.user.id })
  })

  it('your own id leaves the account; a member who owns no account gets a new personal one', async () => {
    const m = await addMember(t, owner, 'member')
    // This member's personal account is gone: leaving must still leave them somewhere to work.
    await sqlRun(t, 'DELETE FROM accounts WHERE owner_id = ?', m.user.id)
    const res = await t.request('DELETE', `/api/account/members/${m.user.id}`, { token: m.token })
    expect(res.body.data).toEqual({ message: 'You left the account' })
    const after = (await t.request('GET', '/api/account', { token: m.token })).body.data
    expect(after).toMatchObject({ your_role: 'owner', members: [{ user_id: m.user.id, role: 'owner' }] })
    expect(after.id).not.toBe(owner.account.id)
    expect(await lastAudit()).toMatchObject({ action: 'member.left', actor_id: m.user.id })
  })

  it('the owner cannot leave', async () => {
    const res = await t.request('DELETE', `/api/account/members/${owner.user.id}`, { token: owner.token })
    expect([res.status, res.body.error]).toEqual([403, 'the account owner cannot leave the account'])
  })
})

describe('project-scoped roster routes', () => {
  it('read, change and remove on the account roster; non-members get 404', async () => {
    const project = await createProject(t, owner)
    const m = await addMember(t, owner, 'member')
    const stranger = await createUser(t)
    const base = `/api/projects/${project.slug}/members`
    expect((await t.request('GET', base, { token: stranger.token })).status).toBe(404)
    expect((await t.request('GET', base, { token: m.token })).body.data.members).toHaveLength(2)
    expect((await t.request('PATCH', `${base}/${m.user.id}`, { token: owner.token, body: { role: 'admin' } })).status).toBe(200)
    expect(await roleOf(m.user.id)).toBe('admin')
    const log = (await t.request('GET', `/api/projects/${project.slug}/audit-log`, { token: owner.token })).body.data
    expect(log.entries[0]).toMatchObject({ action: 'member.role_changed', target: m.user.id, actor_id: owner.user.id, details: { from: 'member', to: 'admin' } })
    expect((await t.request('PATCH', `${base}/${m.user.id}`, { token: stranger.token, body: { role: 'member' } })).status).toBe(404)
    expect((await t.request('DELETE', `${base}/${m.user.id}`, { token: owner.token })).status).toBe(200)
    expect(await roleOf(m.user.id)).toBeNull()
  })
})
