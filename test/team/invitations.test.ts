import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DAY } from '../../src/lib/clock'
import { accounts } from '../../src/modules/auth/accounts.table'
import { startFakeSmtp } from '../auth/auth-helpers'
import { createProject, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember } from './team-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { name: 'Ada', plan: 'free' })
})
afterEach(() => t.close())

const invite = (by: TestUser, body: Record<string, unknown>, path = '/api/account/invites') => t.request('POST', path, { token: by.token, body })
const audit = async () => ((await sqlRows(t, 'SELECT action, target FROM audit_log ORDER BY seq')) as { action: string; target: string }[]).map((a) => a.action)

describe('invitation end to end over SMTP', () => {
  it('mails the link; the invited user accepts it and works in the account', async () => {
    t.close()
    const smtp = await startFakeSmtp()
    try {
      t = createTestApp({ transport: 'smtp', env: { GLITCHBOX_SMTP_URL: smtp.url } })
      owner = await createUser(t, { name: 'Ada' })
      const project = await createProject(t, owner)
      const res = await invite(owner, { email: 'Bob@Example.com', role: 'admin' })
      expect(res.status).toBe(201)
      const inv = res.body.data
      expect(inv).toEqual({ id: expect.any(String), token: expect.any(String), email: 'bob@example.com', role: 'admin', project_access: 'all', expires_at: new Date(t.clock.now().getTime() + 7 * DAY).toISOString() })

      await t.runner.drain()
      expect(smtp.messages).toHaveLength(1)
      const mail = smtp.messages[0]!
      expect(mail.to).toEqual(['bob@example.com'])
      expect(mail.decoded).toContain("Ada invited you to Ada's team on Glitchbox")
      const link = /http:\/\/glitchbox\.test\/invite\?token=([A-Za-z0-9_-]+)/.exec(mail.decoded)
      expect(link?.[1]).toBe(inv.token)
      expect(mail.decoded).toContain('text/html')

      const bob = await createUser(t, { email: 'bob@example.com' })
      expect((await t.request('GET', `/api/projects/${project.slug}/members`, { token: bob.token })).status).toBe(404)
      const accepted = await t.request('POST', '/api/account/invites/accept', { token: bob.token, body: { token: link![1] } })
      expect(accepted.status).toBe(200)
      expect(accepted.body.data).toEqual({ account_id: owner.account.id, account_name: "Ada's team", role: 'admin' })

      const account = (await t.request('GET', '/api/account', { token: bob.token })).body.data
      expect(account).toMatchObject({ id: owner.account.id, your_role: 'admin', pending_invitations: [], usage: { seats: 2 } })
      expect((await t.request('GET', `/api/projects/${project.slug}/members`, { token: bob.token })).status).toBe(200)
      expect(await audit()).toEqual(['invite.created', 'invite.accepted'])
    } finally {
      await smtp.close()
    }
  })
})

describe('POST /api/account/invites', () => {
  it('keeps the mail in the outbox without SMTP and stores only a hash of the token', async () => {
    const res = await invite(owner, { email: 'carol@example.com' })
    expect(res.body.data.role).toBe('member')
    const mail = (await sqlRows(t, 'SELECT "to", text, html FROM mail_outbox'))[0] as { to: string; text: string; html: string }
    expect(mail.to).toBe('carol@example.com')
    expect(mail.text).toContain(`http://glitchbox.test/invite?token=${res.body.data.token}`)
    expect(mail.html).toContain('Accept the invitation')
    const row = (await sqlRows(t, 'SELECT token_hash FROM invitations'))[0] as { token_hash: string }
    expect(row.token_hash).not.toContain(res.body.data.token)
  })

  it.each([
    [{ email: 'not-an-email' }, 400],
    [{}, 400],
    [{ email: 'x@example.com', role: 'owner' }, 400],
  ])('rejects %j with %i', async (body, status) => {
    expect((await invite(owner, body)).status).toBe(status)
  })

  it('answers 409 for a member and for a pending invitation', async () => {
    const member = await addMember(t, owner, 'member')
    const dup = await invite(owner, { email: member.user.email.toUpperCase() })
    expect(dup.status).toBe(409)
    expect((await invite(owner, { email: 'dan@example.com' })).status).toBe(201)
    const again = await invite(owner, { email: 'DAN@example.com' })
    expect(again.status).toBe(409)
    expect(again.body.error).toBe('dan@example.com has already been invited')
  })

  it('may invite again once the earlier invitation expired', async () => {
    expect((await invite(owner, { email: 'dan@example.com' })).status).toBe(201)
    t.clock.advance(7 * DAY + 1)
    expect((await invite(owner, { email: 'dan@example.com' })).status).toBe(201)
  })

  it('counts members and pending invitations toward the seat limit', async () => {
    // Free: 3 seats. The owner holds one.
    expect((await invite(owner, { email: 'a@example.com' })).status).toBe(201)
    expect((await invite(owner, { email: 'b@example.com' })).status).toBe(201)
    const full = await invite(owner, { email: 'c@example.com' })
    expect(full.status).toBe(403)
    expect(full.body.error).toBe(
      "this account's limit of 3 seats is reached (members and pending invitations); to invite more, the server's operator runs `glitchbox admin set-plan EMAIL PLAN` (EMAIL: the account owner's; PLAN self_hosted lifts every limit)",
    )
    // Revoking frees the seat.
    const pending = (await t.request('GET', '/api/account/members', { token: owner.token })).body.data.pending_invitations
    expect((await t.request('DELETE', `/api/account/invites/${pending[0].id}`, { token: owner.token })).status).toBe(200)
    expect((await invite(owner, { email: 'c@example.com' })).status).toBe(201)
  })

  it('needs team.invite: members are refused, admins and granted members may; only the owner invites admins', async () => {
    const member = await addMember(t, owner, 'member')
    const denied = await invite(member, { email: 'e@example.com' })
    expect(denied.status).toBe(403)
    expect(denied.body.error).toBe('you need the team.invite permission')
    const admin = await addMember(t, owner, 'admin')
    await t.deps.db.write((q) => q.update(accounts).set({ plan: 'pro' }).where(eq(accounts.id, owner.account.id)))
    expect((await invite(admin, { email: 'f@example.com' })).status).toBe(201)
    const adminInvite = await invite(admin, { email: 'f2@example.com', role: 'admin' })
    expect([adminInvite.status, adminInvite.body.error]).toEqual([403, 'only the account owner can invite admins'])
    const granted = await addMember(t, owner, 'member', { overrides: { 'team.invite': true } })
    expect((await invite(granted, { email: 'g@example.com' })).status).toBe(201)
    expect((await invite(granted, { email: 'h@example.com', role: 'admin' })).status).toBe(403)
  })

  it('has a project-scoped form on the same data', async () => {
    const project = await createProject(t, owner)
    const res = await invite(owner, { email: 'p@example.com' }, `/api/projects/${project.slug}/invites`)
    expect(res.status).toBe(201)
    const stranger = await createUser(t)
    expect((await invite(stranger, { email: 'q@example.com' }, `/api/projects/${project.slug}/invites`)).status).toBe(404)
    const pending = (await t.request('GET', '/api/account', { token: owner.token })).body.data.pending_invitations
    expect(pending.map((p: any) => p.email)).toEqual(['p@example.com'])
    expect((await t.request('DELETE', `/api/projects/${project.slug}/invites/${res.body.data.id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('GET', '/api/account', { token: owner.token })).body.data.pending_invitations).toEqual([])
  })
})

describe('accepting', () => {
  async function invited(email = 'bob@example.com', role = 'member') {
    const res = await invite(owner, { email, role })
    return res.body.data as { id: string; token: string }
  }

  it('refuses a different signed-in email with 403', async () => {
    const { token } = await invited()
    const eve = await createUser(t, { email: 'eve@example.com' })
    const res = await t.request('POST', '/api/account/invites/accept', { token: eve.token, body: { token } })
    expect(res.status).toBe(403)
    expect(res.body.error).toBe('this invitation was sent to a different email address')
    expect((await t.request('GET', '/api/account', { token: eve.token })).body.data.id).toBe(eve.account.id)
  })

  it('matches the email case-insensitively, once only', async () => {
    const { token } = await invited('Bob@Example.com')
    const bob = await createUser(t, { email: 'BOB@example.com' })
    expect((await t.request('POST', '/api/invites/accept', { token: bob.token, body: { token } })).status).toBe(200)
    const again = await t.request('POST', '/api/invites/accept', { token: bob.token, body: { token } })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('this invitation has already been used')
  })

  it('refuses an expired, revoked or unknown token with 400, and needs a session', async () => {
    const a = await invited('bob@example.com')
    const b = await invited('bob2@example.com')
    const bob = await createUser(t, { email: 'bob@example.com' })
    const bob2 = await createUser(t, { email: 'bob2@example.com' })
    expect((await t.request('DELETE', `/api/account/invites/${b.id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('DELETE', `/api/account/invites/${b.id}`, { token: owner.token })).status).toBe(404)
    t.clock.advance(7 * DAY + 1)
    const expired = await t.request('POST', '/api/account/invites/accept', { token: bob.token, body: { token: a.token } })
    expect([expired.status, expired.body.error]).toEqual([400, 'this invitation has expired'])
    expect((await t.request('POST', '/api/account/invites/accept', { token: bob2.token, body: { token: b.token } })).status).toBe(400)
    expect((await t.request('POST', '/api/account/invites/accept', { token: bob.token, body: { token: 'nope' } })).status).toBe(400)
    expect((await t.request('POST', '/api/account/invites/accept', { body: { token: a.token } })).status).toBe(401)
  })

  it("cannot revoke another account's invitation", async () => {
    const { id } = await invited()
    const other = await createUser(t)
    expect((await t.request('DELETE', `/api/account/invites/${id}`, { token: other.token })).status).toBe(404)
  })
})
