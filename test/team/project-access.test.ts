// Project-scoped access (issue 25): owners and admins limit a member to chosen projects through
// PATCH /members and invitations; the rest of the account then behaves as if those other projects did
// not exist for that member, while their permission overrides keep applying inside the ones they see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PERMISSION_KEYS } from '../../src/modules/permissions/permissions.catalog'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp } from '../helpers/test-app'
import { outbox } from '../notifications/helpers'
import { addTeammate } from '../projects/team-helpers'
import { sqlRows } from '../helpers/sql-rows'

const t = createTestApp()
let owner: TestUser
let a: TestProject
let b: TestProject
afterAll(() => t.close())

beforeAll(async () => {
  owner = await createUser(t, { plan: 'studio', name: 'Olga' })
  a = await createProject(t, owner, { name: 'Aurora Racer' })
  b = await createProject(t, owner, { name: 'Brimstone Kart' })
  await createReportIn(t, a, { title: 'Aurora drifts' })
  await createReportIn(t, b, { title: 'Brimstone melts' })
})

const patch = (actor: TestUser, userId: string, body: unknown) => t.request('PATCH', `/api/account/members/${userId}`, { token: actor.token, body })
const memberRow = async (userId: string) => ((await t.request('GET', '/api/account/members', { token: owner.token })).body.data.members as { user_id: string; role: string; project_access: unknown }[]).find((m) => m.user_id === userId)
const lastAudit = async () => (await sqlRows(t, 'SELECT action, target, details FROM audit_log ORDER BY seq DESC LIMIT 1'))[0] as { action: string; target: string; details: string }
const limitedTo = async (...projects: TestProject[]) => {
  const mate = await addTeammate(t, owner)
  expect((await patch(owner, mate.user.id, { project_access: projects.map((p) => p.id) })).status).toBe(200)
  return mate
}

describe('PATCH /api/account/members/{userId} with project_access', () => {
  it('lets the owner limit a member to chosen projects, shown in the roster and recorded in the audit log', async () => {
    const mate = await addTeammate(t, owner)
    expect((await memberRow(mate.user.id))!.project_access).toBe('all')
    const res = await patch(owner, mate.user.id, { project_access: [a.id, a.id] })
    expect([res.status, res.body.data]).toEqual([200, { message: 'Member updated' }])
    expect((await memberRow(mate.user.id))!.project_access).toEqual([a.id])
    expect(await lastAudit()).toEqual({ action: 'member.project_access_changed', target: mate.user.id, details: JSON.stringify({ from: 'all', to: [a.id] }) })
    expect((await patch(owner, mate.user.id, { project_access: 'all' })).status).toBe(200)
    expect((await memberRow(mate.user.id))!.project_access).toBe('all')
  })

  const refusals: [string, () => Promise<{ actor: TestUser; target: string; body: unknown }>, number, string | RegExp][] = [
    ['a member, even one who edits permissions', async () => ({ actor: await addTeammate(t, owner, { overrides: { 'team.permissions': true, 'team.invite': true } }), target: (await addTeammate(t, owner)).user.id, body: { project_access: [a.id] } }), 403, 'only the account owner or an admin can change which projects members see'],
    ['limiting an admin', async () => ({ actor: owner, target: (await addTeammate(t, owner, { role: 'admin' })).user.id, body: { project_access: [a.id] } }), 400, /^owners and admins see every project/],
    ['limiting the owner', async () => ({ actor: await addTeammate(t, owner, { role: 'admin' }), target: owner.user.id, body: { project_access: [a.id] } }), 403, 'the account owner sees every project'],
    ["another account's project", async () => {
      const stranger = await createUser(t)
      const theirs = await createProject(t, stranger)
      return { actor: owner, target: (await addTeammate(t, owner)).user.id, body: { project_access: [theirs.id] } }
    }, 400, /^project_access names no project of this account: /],
    ['an id that is no project', async () => ({ actor: owner, target: (await addTeammate(t, owner)).user.id, body: { project_access: ['nope'] } }), 400, 'project_access names no project of this account: nope'],
    ['a value that is neither "all" nor a list', async () => ({ actor: owner, target: (await addTeammate(t, owner)).user.id, body: { project_access: 'some' } }), 400, /project_access/],
    ['a body with neither role nor project_access', async () => ({ actor: owner, target: (await addTeammate(t, owner)).user.id, body: {} }), 400, 'no valid fields to update (send role or project_access)'],
  ]
  it.each(refusals)('refuses %s and changes nothing', async (_, setup, status, message) => {
    const { actor, target, body } = await setup()
    const before = await memberRow(target)
    const res = await patch(actor, target, body)
    expect(res.status).toBe(status)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toMatch(message)
    expect(await memberRow(target)).toEqual(before)
  })

  it('lets an admin limit a member; promoting a limited member to admin lifts the limit, demoting can set one again', async () => {
    const admin = await addTeammate(t, owner, { role: 'admin' })
    const mate = await addTeammate(t, owner)
    expect((await patch(admin, mate.user.id, { project_access: [b.id] })).status).toBe(200)
    expect((await patch(owner, mate.user.id, { role: 'admin' })).status).toBe(200)
    expect(await memberRow(mate.user.id)).toMatchObject({ role: 'admin', project_access: 'all' })
    expect((await patch(owner, mate.user.id, { role: 'admin', project_access: [a.id] })).status).toBe(400)
    expect((await patch(owner, mate.user.id, { role: 'member', project_access: [a.id] })).status).toBe(200)
    expect(await memberRow(mate.user.id)).toMatchObject({ role: 'member', project_access: [a.id] })
  })

  it('is the same through the project-scoped route', async () => {
    const mate = await addTeammate(t, owner)
    const res = await t.request('PATCH', `/api/projects/${a.slug}/members/${mate.user.id}`, { token: owner.token, body: { project_access: [a.id] } })
    expect(res.status).toBe(200)
    expect((await memberRow(mate.user.id))!.project_access).toEqual([a.id])
  })
})

describe('a member limited to project A', () => {
  it('gets 404 on B, exactly as a stranger does, and reads A', async () => {
    const mate = await limitedTo(a)
    const stranger = await createUser(t)
    const onB = await t.request('GET', `/api/projects/${b.slug}/bugs`, { token: mate.token })
    const strangerOnB = await t.request('GET', `/api/projects/${b.slug}/bugs`, { token: stranger.token })
    expect([onB.status, onB.body]).toEqual([strangerOnB.status, strangerOnB.body])
    expect(onB.status).toBe(404)
    const onA = await t.request('GET', `/api/projects/${a.slug}/bugs`, { token: mate.token })
    expect(onA.status).toBe(200)
    expect(onA.body.data.bugs.map((r: { title: string }) => r.title)).toEqual(['Aurora drifts'])
  })

  it('keeps their permission overrides inside A: without bugs.view, 403 on A and still 404 on B', async () => {
    const mate = await addTeammate(t, owner, { overrides: { 'bugs.view': false } })
    await patch(owner, mate.user.id, { project_access: [a.id] })
    expect((await t.request('GET', `/api/projects/${a.slug}/bugs`, { token: mate.token })).status).toBe(403)
    expect((await t.request('GET', `/api/projects/${b.slug}/bugs`, { token: mate.token })).status).toBe(404)
    const nothing = await addTeammate(t, owner, { overrides: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) })
    await patch(owner, nothing.user.id, { project_access: [a.id] })
    expect((await t.request('GET', '/api/permissions', { token: nothing.token })).body.data).toMatchObject({ role: 'member', project_access: [a.id], permissions: { 'bugs.view': false } })
  })

  it('cannot create projects, which the owner still can', async () => {
    const mate = await limitedTo(a)
    const res = await t.request('POST', '/api/projects', { token: mate.token, body: { name: 'Sneaky' } })
    expect([res.status, res.body.error]).toEqual([403, 'you see only some projects of this account, so you cannot create projects; ask the owner or an admin'])
    expect((await t.request('GET', '/api/projects', { token: owner.token })).body.data.map((p: { name: string }) => p.name)).not.toContain('Sneaky')
  })

  it("is on A's roster and not B's, and can be assigned A's reports but not B's", async () => {
    const mate = await limitedTo(a)
    const roster = async (p: TestProject) => ((await t.request('GET', `/api/projects/${p.slug}/members`, { token: owner.token })).body.data.members as { user_id: string }[]).map((m) => m.user_id)
    expect(await roster(a)).toContain(mate.user.id)
    expect(await roster(b)).not.toContain(mate.user.id)
    const onB = await t.request('PATCH', `/api/projects/${b.slug}/bugs/1`, { token: owner.token, body: { assigned_to: mate.user.id } })
    expect([onB.status, onB.body.error]).toEqual([400, "assigned_to must be a member of the project's team"])
    expect((await t.request('GET', `/api/projects/${b.slug}/bugs/1`, { token: owner.token })).body.data.bug.assigned_to).toBeNull()
    expect((await t.request('PATCH', `/api/projects/${a.slug}/bugs/1`, { token: owner.token, body: { assigned_to: mate.user.id } })).status).toBe(200)
    await t.request('PATCH', `/api/projects/${a.slug}/bugs/1`, { token: owner.token, body: { assigned_to: null } })
  })

  it("sees B's id in nobody's access list: lists show only the projects the viewer sees", async () => {
    const both = await limitedTo(a, b)
    const mate = await limitedTo(a)
    const seen = ((await t.request('GET', '/api/account/members', { token: mate.token })).body.data.members as { user_id: string; project_access: unknown }[]).find((m) => m.user_id === both.user.id)
    expect(seen!.project_access).toEqual([a.id])
    const permissions = await t.request('GET', `/api/account/members/${both.user.id}/permissions`, { token: mate.token })
    expect(permissions.body.data.project_access).toEqual([a.id])
    expect(JSON.stringify((await t.request('GET', '/api/account', { token: mate.token })).body.data)).not.toContain(b.id)
  })

  it('loses a deleted project from their list', async () => {
    const gone = await createProject(t, owner, { name: 'Cancelled Game' })
    const mate = await limitedTo(a, gone)
    const invite = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'temp@vendor.example', project_access: [gone.id] } })
    expect((await t.request('DELETE', `/api/projects/${gone.slug}`, { token: owner.token })).status).toBe(200)
    expect((await memberRow(mate.user.id))!.project_access).toEqual([a.id])
    const pending = (await t.request('GET', '/api/account/members', { token: owner.token })).body.data.pending_invitations.find((i: { id: string }) => i.id === invite.body.data.id)
    expect(pending.project_access).toEqual([])
  })
})

describe('invitations with project_access', () => {
  it('carry the limit to the membership, and the mail says which projects', async () => {
    const res = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'qa@vendor.example', project_access: [a.id] } })
    expect(res.status).toBe(201)
    expect(res.body.data).toMatchObject({ email: 'qa@vendor.example', role: 'member', project_access: [a.id] })
    const mail = (await outbox(t)).find((m) => m.to === 'qa@vendor.example')!
    expect(mail.text).toContain('as a member with access to Aurora Racer.')
    const vendor = await createUser(t, { email: 'qa@vendor.example' })
    expect((await t.request('POST', '/api/account/invites/accept', { token: vendor.token, body: { token: res.body.data.token } })).status).toBe(200)
    expect((await t.request('GET', '/api/projects', { token: vendor.token })).body.data.map((p: { name: string }) => p.name)).toEqual(['Aurora Racer'])
    expect((await t.request('GET', `/api/projects/${b.slug}`, { token: vendor.token })).status).toBe(404)
  })

  it('default to "all" from the owner, and refuse a limit on an admin', async () => {
    const open = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'lead@studio.example' } })
    expect(open.body.data.project_access).toBe('all')
    const admin = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'cto@studio.example', role: 'admin', project_access: [a.id] } })
    expect(admin.status).toBe(400)
  })

  it('from a limited inviter: default to their own projects, and never reach beyond them', async () => {
    const inviter = await addTeammate(t, owner, { overrides: { 'team.invite': true } })
    await patch(owner, inviter.user.id, { project_access: [a.id] })
    const invite = (body: Record<string, unknown>) => t.request('POST', '/api/account/invites', { token: inviter.token, body: { email: `friend-${Math.random()}@vendor.example`, ...body } })
    expect((await invite({})).body.data.project_access).toEqual([a.id])
    const all = await invite({ project_access: 'all' })
    expect([all.status, all.body.error]).toEqual([403, 'you see only some projects of this account, so you can invite people only into those (list them in project_access)'])
    const hidden = await invite({ project_access: [b.id] })
    expect([hidden.status, hidden.body.error]).toEqual([400, `project_access names no project of this account: ${b.id}`])
  })
})
