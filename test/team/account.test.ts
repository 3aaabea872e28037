import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from './team-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe('GET /api/account', () => {
  it('shows the account with role, plan, roster, invitations, projects, usage and limits', async () => {
    const owner = await createUser(t, { name: 'Ada', plan: 'pro' })
    const member = await addMember(t, owner, 'member')
    const project = await createProject(t, owner, { name: 'Space Game' })
    await createReportIn(t, project)
    const inv = await t.request('POST', '/api/account/invites', { token: owner.token, body: { email: 'new@example.com' } })
    expect(inv.status).toBe(201)

    const res = await t.request('GET', '/api/account', { token: member.token })
    expect(res.status).toBe(200)
    const a = res.body.data
    expect(a).toMatchObject({
      id: owner.account.id,
      name: "Ada's team",
      your_role: 'member',
      plan: { key: 'pro', name: 'Pro', tier: 2 },
      projects: [{ id: project.id, name: 'Space Game', slug: project.slug }],
      usage: { projects: 1, reports: 1, upload_bytes: 0, seats: 3 },
      limits: { projects: 10, seats: 15 },
      features: { events: true, session_replays: false },
    })
    expect(a.members.map((m: any) => [m.email, m.role])).toEqual([
      [owner.user.email, 'owner'],
      [member.user.email, 'member'],
    ])
    expect(a.pending_invitations).toEqual([{ id: inv.body.data.id, email: 'new@example.com', role: 'member', project_access: 'all', expires_at: expect.any(String), created_at: expect.any(String) }])
  })

  it('needs a session', async () => {
    expect((await t.request('GET', '/api/account')).status).toBe(401)
  })
})

describe('PATCH /api/account', () => {
  it.each([
    ['owner', 200],
    ['admin', 200],
    ['member', 403],
  ] as const)('%s renaming answers %i', async (role, status) => {
    const owner = await createUser(t)
    const actor = role === 'owner' ? owner : await addMember(t, owner, role)
    const res = await t.request('PATCH', '/api/account', { token: actor.token, body: { name: 'Studio Nine' } })
    expect(res.status).toBe(status)
    const name = (await t.request('GET', '/api/account', { token: owner.token })).body.data.name
    expect(name).toBe(status === 200 ? 'Studio Nine' : owner.account.name)
    if (status === 403) expect(res.body.error).toBe('only the account owner or an admin can rename the account')
  })

  it('rejects an empty or over-long name', async () => {
    const owner = await createUser(t)
    for (const name of ['', 'x'.repeat(101)]) expect((await t.request('PATCH', '/api/account', { token: owner.token, body: { name } })).status).toBe(400)
  })
})
