import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsOf } from '../../src/db/client'
import { HOUR } from '../../src/lib/clock'
import { newId } from '../../src/lib/ids'
import { jobs } from '../../src/jobs/jobs.table'
import { accountMembers, accounts } from '../../src/modules/auth/accounts.table'
import { activity } from '../../src/modules/activity/activity.table'
import { attachments } from '../../src/modules/attachments/attachments.table'
import { adminFindShareCode } from '../../src/modules/auth/auth.cli'
import { sessions, users } from '../../src/modules/auth/auth.table'
import { comments } from '../../src/modules/comments/comments.table'
import { projects } from '../../src/modules/projects/projects.table'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])

async function addComment(author: TestUser, project: TestProject, reportId: string, body: string) {
  const now = t.clock.now()
  const id = newId()
  await t.deps.db.write((q) => q.insert(comments).values({ id, reportId, projectId: project.id, authorId: author.user.id, body, createdAt: now, updatedAt: now }))
  return id
}

async function addMember(account: { id: string }, member: TestUser, role: 'admin' | 'member' = 'member') {
  await t.deps.db.write((q) => q.insert(accountMembers).values({ accountId: account.id, userId: member.user.id, role, createdAt: t.clock.now() }))
}

const filePath = (key: string) => join(t.dir, 'files', key.slice(0, 2), key)

describe('support share code', () => {
  it('issues an 8-character code valid for 1 hour by default, or 3 or 24 hours', async () => {
    const u = await createUser(t)
    for (const [query, hours] of [['', 1], ['?hours=1', 1], ['?hours=3', 3], ['?hours=24', 24]] as const) {
      const res = await t.request('POST', `/api/auth/support-share-code${query}`, { token: u.token })
      expect(res.status).toBe(200)
      expect(Object.keys(res.body.data).sort()).toEqual(['code', 'expires_at'])
      expect(res.body.data.code).toMatch(/^[A-Z2-9]{8}$/)
      expect(res.body.data.expires_at).toBe(new Date(t.clock.now().getTime() + hours * HOUR).toISOString())
    }
  })

  it.each(['2', '0', 'abc', '-1'])('answers 400 for hours=%s', async (hours) => {
    const u = await createUser(t)
    const res = await t.request('POST', `/api/auth/support-share-code?hours=${hours}`, { token: u.token })
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('hours: must be 1, 3 or 24')
  })

  it('replaces the previous code, expires, and is revoked by DELETE', async () => {
    const u = await createUser(t)
    const first = (await t.request('POST', '/api/auth/support-share-code', { token: u.token })).body.data.code
    const second = (await t.request('POST', '/api/auth/support-share-code?hours=3', { token: u.token })).body.data.code
    expect(await adminFindShareCode(t.deps, first)).toBeNull()
    expect(await adminFindShareCode(t.deps, second.toLowerCase())).toMatchObject({ userId: u.user.id, email: u.user.email })

    t.clock.advance(3 * HOUR)
    expect(await adminFindShareCode(t.deps, second)).toBeNull()

    const third = (await t.request('POST', '/api/auth/support-share-code', { token: u.token })).body.data.code
    const del = await t.request('DELETE', '/api/auth/support-share-code', { token: u.token })
    expect(del.status).toBe(200)
    expect(del.body.data.message).toBe('Support share code revoked')
    expect(await adminFindShareCode(t.deps, third)).toBeNull()
    expect(JSON.stringify(await t.deps.db.read((q) => rowsOf(q, sql`select * from support_share_codes`)))).not.toContain(third)
  })
})

describe('GET /api/account/export', () => {
  it('downloads profile, memberships, projects, reports and comments as JSON', async () => {
    const me = await createUser(t, { name: 'Me' })
    const boss = await createUser(t, { name: 'Boss' })
    await addMember(boss.account, me)
    const mine = await createProject(t, me, { name: 'My Game' })
    const theirs = await createProject(t, boss, { name: 'Their Game' })
    const inMine = await createReportIn(t, mine, { title: 'Filed by a player' })
    const filedByMe = await createReportIn(t, theirs, { title: 'Filed by me', createdBy: me.user.id })
    await createReportIn(t, theirs, { title: 'Someone else' })
    const deleted = await createReportIn(t, mine, { title: 'Deleted one' })
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, deleted.id)))
    await addComment(me, theirs, filedByMe.id, 'my comment')
    await addComment(boss, theirs, filedByMe.id, 'boss comment')

    const res = await t.request('GET', '/api/account/export', { token: me.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="glitchbox-export.json"')
    const data = res.body.data
    expect(data.exported_at).toBe(t.clock.now().toISOString())
    expect(data.profile).toMatchObject({ id: me.user.id, email: me.user.email, name: 'Me' })
    expect(data.accounts.map((a: { id: string; role: string }) => [a.id, a.role]).sort()).toEqual(
      [[me.account.id, 'owner'], [boss.account.id, 'member']].sort(),
    )
    expect(data.projects.map((p: { name: string }) => p.name).sort()).toEqual(['My Game', 'Their Game'])
    expect(data.reports.map((r: { title: string; filed_by_you: boolean }) => [r.title, r.filed_by_you]).sort()).toEqual([
      ['Filed by a player', false],
      ['Filed by me', true],
    ])
    expect(data.reports.find((r: { id: string }) => r.id === inMine.id)).toMatchObject({ project_slug: mine.slug, report_number: 1, status: 'open' })
    expect(data.comments).toEqual([expect.objectContaining({ body: 'my comment', project_slug: theirs.slug, report_number: filedByMe.reportNumber })])
  })
})

describe('DELETE /api/auth/account', () => {
  it.each([
    ['no body', undefined],
    ['no confirmation', {}],
    ['the wrong text', { confirmation: 'delete' }],
  ])('answers 400 for %s and deletes nothing', async (_, body) => {
    const u = await createUser(t)
    const res = await t.request('DELETE', '/api/auth/account', { token: u.token, body })
    expect(res.status).toBe(400)
    expect((await t.request('GET', '/api/auth/me', { token: u.token })).status).toBe(200)
  })

  it('answers 409 while an owned account has other members, and transfers nothing', async () => {
    const owner = await createUser(t)
    const teammate = await createUser(t)
    await addMember(owner.account, teammate, 'admin')
    const project = await createProject(t, owner)
    const res = await t.request('DELETE', '/api/auth/account', { token: owner.token, body: { confirmation: 'DELETE' } })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('transfer ownership or remove the other members first')
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id))))[0]!.ownerId).toBe(owner.user.id)
    expect((await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, project.id))))[0]).toBeDefined()
    expect((await t.request('GET', '/api/auth/me', { token: owner.token })).status).toBe(200)
  })

  it('deletes the user, their own account with its projects, reports and files, and every session', async () => {
    const u = await createUser(t, { password: 'delete-me-please' })
    const second = (await t.request('POST', '/api/auth/login', { body: { email: u.user.email, password: 'delete-me-please' } })).body.data.token
    const project = await createProject(t, u)
    const shot = await t.deps.files.store(t.deps.db, { data: PNG, fileName: 'shot.png', declaredType: 'image/png', kind: 'image', maxBytes: 1 << 20 })
    const file = await t.deps.files.store(t.deps.db, { data: new TextEncoder().encode('log line'), fileName: 'log.txt', declaredType: 'text/plain', kind: 'attachment', maxBytes: 1 << 20 })
    const report = await createReportIn(t, project, { screenshotKey: shot.key })
    await t.deps.db.write((q) => q.insert(attachments).values({ id: newId(), reportId: report.id, projectId: project.id, fileKey: file.key, fileName: 'log.txt', fileSize: file.size, createdAt: t.clock.now() }))
    expect(existsSync(filePath(shot.key)) && existsSync(filePath(file.key))).toBe(true)

    const res = await t.request('DELETE', '/api/auth/account', { token: u.token, body: { confirmation: 'DELETE' } })
    expect(res.status).toBe(200)
    expect(res.body.data.message).toMatch(/deleted/)

    for (const token of [u.token, second]) expect((await t.request('GET', '/api/auth/me', { token })).status).toBe(401)
    expect((await t.request('POST', '/api/auth/login', { body: { email: u.user.email, password: 'delete-me-please' } })).status).toBe(401)
    expect((await t.deps.db.read((q) => q.select().from(users).where(eq(users.id, u.user.id))))[0]).toBeUndefined()
    expect(await t.deps.db.read((q) => q.select().from(sessions).where(eq(sessions.userId, u.user.id)))).toEqual([])
    expect((await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, u.account.id))))[0]).toBeUndefined()
    expect((await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, project.id))))[0]).toBeUndefined()
    expect(await t.deps.db.read((q) => q.select().from(reports).where(eq(reports.projectId, project.id)))).toEqual([])
    expect(await t.deps.db.read((q) => q.select().from(activity).where(eq(activity.projectId, project.id)))).toEqual([])
    expect(existsSync(filePath(shot.key)) || existsSync(filePath(file.key))).toBe(false)
    expect(await t.deps.files.open(t.deps.db, file.key)).toBeNull()
    // The address is free for a new signup.
    expect((await t.request('POST', '/api/auth/signup', { body: { email: u.user.email, password: 'a-new-start' } })).status).toBe(201)
  })

  it('leaves other accounts alone: membership goes, comments stay without an author', async () => {
    const boss = await createUser(t)
    const leaver = await createUser(t)
    await addMember(boss.account, leaver)
    const project = await createProject(t, boss)
    const report = await createReportIn(t, project, { createdBy: leaver.user.id })
    await t.deps.db.write((q) => q.update(reports).set({ assignedTo: leaver.user.id }).where(eq(reports.id, report.id)))
    const commentId = await addComment(leaver, project, report.id, 'still useful')

    const res = await t.request('DELETE', '/api/auth/account', { token: leaver.token, body: { confirmation: 'DELETE' } })
    expect(res.status).toBe(200)
    expect((await t.deps.db.read((q) => q.select().from(accountMembers).where(eq(accountMembers.accountId, boss.account.id)))).map((m) => m.userId)).toEqual([boss.user.id])
    expect((await t.deps.db.read((q) => q.select().from(comments).where(eq(comments.id, commentId))))[0]).toMatchObject({ body: 'still useful', authorId: null })
    expect((await t.deps.db.read((q) => q.select().from(reports).where(eq(reports.id, report.id))))[0]).toMatchObject({ createdBy: null, assignedTo: null })
    expect((await t.request('GET', '/api/auth/me', { token: boss.token })).status).toBe(200)
  })

  it('queues the cancellation of a subscription on an owned account in the same transaction', async () => {
    const payer = await createUser(t, { plan: 'pro' })
    await t.deps.db.write((q) => q.update(accounts).set({ stripeSubscriptionId: 'sub_123', stripeCustomerId: 'cus_1' }).where(eq(accounts.id, payer.account.id)))
    const res = await t.request('DELETE', '/api/auth/account', { token: payer.token, body: { confirmation: 'DELETE' } })
    expect(res.status).toBe(200)
    const queued = await t.deps.db.read((q) => q.select().from(jobs).where(eq(jobs.kind, 'billing.cancel-subscription')))
    expect(queued.map((j) => j.payload)).toEqual([{ subscriptionId: 'sub_123', accountId: payer.account.id }])
  })

  it('queues no cancellation when the refused deletion rolls back', async () => {
    const payer = await createUser(t, { plan: 'pro' })
    await t.deps.db.write((q) => q.update(accounts).set({ stripeSubscriptionId: 'sub_456' }).where(eq(accounts.id, payer.account.id)))
    await addMember(payer.account, await createUser(t))
    expect((await t.request('DELETE', '/api/auth/account', { token: payer.token, body: { confirmation: 'DELETE' } })).status).toBe(409)
    expect(await t.deps.db.read((q) => q.select().from(jobs).where(eq(jobs.kind, 'billing.cancel-subscription')))).toEqual([])
  })
})
