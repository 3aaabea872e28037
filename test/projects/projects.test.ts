import { rollUpOccurrences } from '../../src/modules/analytics/analytics.rollup'
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { accounts } from '../../src/modules/auth/accounts.table'
import { attachments } from '../../src/modules/attachments/attachments.table'
import { comments } from '../../src/modules/comments/comments.table'
import { projects } from '../../src/modules/projects/projects.table'
import { slugify, slugPrefix } from '../../src/modules/projects/projects.service'
import { reports } from '../../src/modules/reports/reports.table'
import { createReportIn, createUser, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from './team-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

async function newProject(owner: TestUser, body: Record<string, unknown> = { name: 'Space Game' }) {
  const res = await t.request('POST', '/api/projects', { token: owner.token, body })
  expect(res.status).toBe(201)
  return res.body.data as { id: string; slug: string; api_key: string }
}

const projectRow = async (id: string) => (await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, id)).limit(1)))[0]!

describe('slugify', () => {
  it.each([
    ['Space Game', 'space-game'],
    ['  Hello   World!! ', 'hello-world'],
    ['Ünïcode Çafé 2', 'unicode-cafe-2'],
    ['---', 'project'],
    ['日本語', 'project'],
    ['a'.repeat(80), 'a'.repeat(60)],
  ])('%s → %s', (name, slug) => expect(slugify(name)).toBe(slug))
})

describe('POST /api/projects', () => {
  it('creates a project with a prefixed slug and an sk_live_ key', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner, { name: 'Space Game', description: 'A game', website_url: 'https://example.com' })
    expect(p.slug).toBe(`${slugPrefix(owner.user.id)}-space-game`)
    expect(p.api_key).toMatch(/^sk_live_[A-Za-z0-9]{40}$/)
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/)
    const row = await projectRow(p.id)
    expect(row).toMatchObject({ accountId: owner.account.id, createdBy: owner.user.id, description: 'A game', websiteUrl: 'https://example.com' })
  })

  it('uses a given slug and appends -2, -3 on collisions', async () => {
    const owner = await createUser(t, { plan: 'pro' })
    const a = await newProject(owner, { name: 'X', slug: 'My Slug' })
    const b = await newProject(owner, { name: 'My slug' })
    const c = await newProject(owner, { name: 'Other', slug: 'my-slug' })
    expect(a.slug.endsWith('-my-slug')).toBe(true)
    expect(b.slug).toBe(`${a.slug}-2`)
    expect(c.slug).toBe(`${a.slug}-3`)
  })

  it.each([
    [{}, 'name is required'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(151) }, 'name'],
    [{ name: 'ok', website_url: 'javascript:alert(1)' }, 'website_url'],
    [{ name: 'ok', description: 5 }, 'description'],
  ])('answers 400 for %j', async (body, message) => {
    const owner = await createUser(t)
    const res = await t.request('POST', '/api/projects', { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(res.body.error).toContain(message)
  })

  it('answers 401 without a session', async () => {
    expect((await t.request('POST', '/api/projects', { body: { name: 'x' } })).status).toBe(401)
  })

  it('answers 403 naming the limit at the project limit (no plan without billing)', async () => {
    const owner = await createUser(t, { plan: 'free' })
    await newProject(owner, { name: 'One' })
    await newProject(owner, { name: 'Two' })
    const res = await t.request('POST', '/api/projects', { token: owner.token, body: { name: 'Three' } })
    expect(res.status).toBe(403)
    expect(res.body.error).toContain('this account allows 2 projects')
    const list = await t.request('GET', '/api/projects', { token: owner.token })
    expect(list.body.data).toHaveLength(2)
  })

  it('creates in the account the user works in, counting that account toward its limit', async () => {
    const owner = await createUser(t)
    const mate = await addTeammate(t, owner)
    const p = await newProject(mate, { name: 'Team Game' })
    expect((await projectRow(p.id)).accountId).toBe(owner.account.id)
    const list = await t.request('GET', '/api/projects', { token: owner.token })
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([p.id])
  })

  it('writes an audit entry', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const log = await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: owner.token })
    expect(log.body.data.entries.map((e: { action: string }) => e.action)).toEqual(['project.created'])
  })
})

describe('GET /api/projects', () => {
  it('lists the account projects with live bug counts by status', async () => {
    const owner = await createUser(t)
    const other = await createUser(t)
    const a = await newProject(owner, { name: 'A' })
    const b = await newProject(owner, { name: 'B' })
    await newProject(other, { name: 'Not mine' })
    const pa = await projectRow(a.id)
    await createReportIn(t, pa)
    const r2 = await createReportIn(t, pa)
    const r3 = await createReportIn(t, pa)
    await t.deps.db.write((q) => q.update(reports).set({ status: 'resolved' }).where(eq(reports.id, r2.id)))
    await t.deps.db.write((q) => q.update(reports).set({ deletedAt: t.clock.now() }).where(eq(reports.id, r3.id)))
    const res = await t.request('GET', '/api/projects', { token: owner.token })
    expect(res.status).toBe(200)
    const byId = Object.fromEntries(res.body.data.map((p: { id: string }) => [p.id, p]))
    expect(Object.keys(byId).sort()).toEqual([a.id, b.id].sort())
    expect(byId[a.id]).toMatchObject({ name: 'A', slug: a.slug, is_public: true, description: '', website_url: '', logo_url: '' })
    expect(byId[a.id].bug_counts).toEqual({ total: 2, open: 1, in_progress: 0, resolved: 1, closed: 0, wont_fix: 0 })
    expect(byId[b.id].bug_counts.total).toBe(0)
    expect(byId[a.id]).not.toHaveProperty('api_key')
  })

  it('answers 401 without a session', async () => {
    expect((await t.request('GET', '/api/projects')).status).toBe(401)
  })
})

describe('GET /api/projects/:slug', () => {
  it('shows settings, SDK settings, key, stats and role', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    await createReportIn(t, await projectRow(p.id))
    const res = await t.request('GET', `/api/projects/${p.slug}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({
      id: p.id,
      slug: p.slug,
      api_key: p.api_key,
      created_by: owner.user.id,
      role: 'owner',
      settings: { is_public: true, bug_grouping: true },
      sdk_settings: { screenshot_capture: true, session_capture: false, auto_file_errors: true, capture_editor_errors: false, capture_warnings: false },
      stats: { total_reports: 1, open_reports: 1, resolved_reports: 0 },
    })
    const mate = await addTeammate(t, owner, { role: 'admin' })
    expect((await t.request('GET', `/api/projects/${p.slug}`, { token: mate.token })).body.data.role).toBe('admin')
  })

  it('answers 404 to non-members and for unknown slugs', async () => {
    const owner = await createUser(t)
    const stranger = await createUser(t)
    const p = await newProject(owner)
    for (const [token, slug] of [[stranger.token, p.slug], [owner.token, 'nope']] as const) {
      const res = await t.request('GET', `/api/projects/${slug}`, { token })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'project not found' })
    }
  })
})

describe('PATCH /api/projects/:slug', () => {
  it('updates every updatable field and shows the change on the next read', async () => {
    const owner = await createUser(t, { plan: 'studio' })
    const p = await newProject(owner)
    const body = {
      name: 'Renamed',
      description: 'New text',
      website_url: 'https://game.example',
      logo_url: 'http://cdn.example/logo.png',
      is_public: false,
      screenshot_capture: false,
      session_capture: true,
      auto_file_errors: false,
      capture_editor_errors: true,
      capture_warnings: true,
      bug_grouping: false,
    }
    const res = await t.request('PATCH', `/api/projects/${p.slug}`, { token: owner.token, body })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Project updated', slug: p.slug } })
    const d = (await t.request('GET', `/api/projects/${p.slug}`, { token: owner.token })).body.data
    expect(d).toMatchObject({
      name: 'Renamed',
      description: 'New text',
      website_url: 'https://game.example',
      logo_url: 'http://cdn.example/logo.png',
      is_public: false,
      settings: { is_public: false, bug_grouping: false },
      sdk_settings: { screenshot_capture: false, session_capture: true, auto_file_errors: false, capture_editor_errors: true, capture_warnings: true },
    })
    // A private project's key stops working for the SDK.
    expect((await projectRow(p.id)).isPublic).toBe(false)
    const log = (await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: owner.token })).body.data
    expect(log.entries[0]).toMatchObject({ action: 'project.updated', actor_id: owner.user.id })
    expect(log.entries[0].details.changes.name).toEqual(['Space Game', 'Renamed'])
  })

  it('clears URLs with an empty string', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner, { name: 'G', website_url: 'https://a.example' })
    expect((await t.request('PATCH', `/api/projects/${p.slug}`, { token: owner.token, body: { website_url: '' } })).status).toBe(200)
    expect((await projectRow(p.id)).websiteUrl).toBe('')
  })

  it.each([
    [{}, 'no valid fields to update'],
    [{ unknown: 1 }, 'no valid fields to update'],
    [{ is_public: 'yes' }, 'is_public'],
    [{ bug_grouping: 1 }, 'bug_grouping'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(151) }, 'name'],
    [{ logo_url: 'ftp://x.example/a.png' }, 'logo_url'],
    [{ website_url: 'not a url' }, 'website_url'],
  ])('answers 400 for %j and changes nothing', async (body, message) => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const res = await t.request('PATCH', `/api/projects/${p.slug}`, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect((await projectRow(p.id)).name).toBe('Space Game')
  })

  it('answers 403 when session capture is not on the plan', async () => {
    const owner = await createUser(t, { plan: 'free' })
    const p = await newProject(owner)
    const res = await t.request('PATCH', `/api/projects/${p.slug}`, { token: owner.token, body: { session_capture: true } })
    expect(res.status).toBe(403)
    expect(res.body.error).toContain('this account does not have session capture')
    expect((await projectRow(p.id)).sessionCapture).toBe(false)
  })

  it('needs project.settings (403) and membership (404)', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const member = await addTeammate(t, owner, { role: 'member', overrides: { 'project.settings': false } })
    const stranger = await createUser(t)
    expect((await t.request('PATCH', `/api/projects/${p.slug}`, { token: member.token, body: { name: 'Nope' } })).status).toBe(403)
    expect((await t.request('PATCH', `/api/projects/${p.slug}`, { token: stranger.token, body: { name: 'Nope' } })).status).toBe(404)
    expect((await projectRow(p.id)).name).toBe('Space Game')
  })
})

describe('POST /api/projects/:slug/rotate-key', () => {
  it('returns a new key; the old one stops working at once', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const res = await t.request('POST', `/api/projects/${p.slug}/rotate-key`, { token: owner.token })
    expect(res.status).toBe(200)
    const key = res.body.data.api_key
    expect(key).toMatch(/^sk_live_[A-Za-z0-9]{40}$/)
    expect(key).not.toBe(p.api_key)
    expect((await projectRow(p.id)).apiKey).toBe(key)
    expect((await t.request('GET', `/api/projects/${p.slug}`, { token: owner.token })).body.data.api_key).toBe(key)
    const log = (await t.request('GET', `/api/projects/${p.slug}/audit-log`, { token: owner.token })).body.data
    expect(log.entries[0].action).toBe('project.key_rotated')
  })

  it('needs project.settings', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const member = await addTeammate(t, owner, { overrides: { 'project.settings': false } })
    expect((await t.request('POST', `/api/projects/${p.slug}/rotate-key`, { token: member.token })).status).toBe(403)
    expect((await projectRow(p.id)).apiKey).toBe(p.api_key)
  })
})

describe('DELETE /api/projects/:slug', () => {
  it('lets the owner delete: project, reports, comments and stored files go; quota stays used', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const row = await projectRow(p.id)
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 1, 2, 3])
    const shot = await t.deps.files.store(t.deps.db, { data: png, fileName: 's.png', kind: 'image', maxBytes: 1e6 })
    const r = await createReportIn(t, row, { screenshotKey: shot.key })
    const form = new FormData()
    form.append('file', new File(['log line'], 'log.txt', { type: 'text/plain' }))
    const up = await t.request('POST', `/api/projects/${p.slug}/bugs/${r.reportNumber}/attachments`, { token: owner.token, body: form })
    expect(up.status).toBe(201)
    await t.request('POST', `/api/projects/${p.slug}/bugs/${r.reportNumber}/comments`, { token: owner.token, body: { body: 'hi' } })
    const attKey = (await t.deps.db.read((q) => q.select().from(attachments).limit(1)))[0]!.fileKey
    // The list's facets and daily counts (issue 24) go with the project too.
    await rollUpOccurrences(t.deps.db)
    const listRows = async () => (await sqlRows(t, 'SELECT (SELECT count(*) FROM report_facets) + (SELECT count(*) FROM report_daily) AS n'))[0] as { n: number }
    expect((await listRows()).n).toBeGreaterThan(0)
    const usedBefore = (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!

    const res = await t.request('DELETE', `/api/projects/${p.slug}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { message: 'Project deleted' } })
    expect((await t.request('GET', `/api/projects/${p.slug}`, { token: owner.token })).status).toBe(404)
    expect((await t.deps.db.read((q) => q.select().from(reports)))).toHaveLength(0)
    expect((await t.deps.db.read((q) => q.select().from(comments)))).toHaveLength(0)
    expect((await t.deps.db.read((q) => q.select().from(attachments)))).toHaveLength(0)
    expect((await listRows()).n).toBe(0)
    for (const key of [shot.key, attKey]) expect((await t.request('GET', `/api/files/${key}`)).status).toBe(404)
    const usedAfter = (await t.deps.db.read((q) => q.select().from(accounts).where(eq(accounts.id, owner.account.id)).limit(1)))[0]!
    expect(usedAfter.reportsCreated).toBe(usedBefore.reportsCreated)
    expect(usedAfter.uploadBytesUsed).toBe(usedBefore.uploadBytesUsed)
  })

  it('lets the project creator delete, but not another admin (403)', async () => {
    const owner = await createUser(t)
    const creator = await addTeammate(t, owner, { role: 'member' })
    const admin = await addTeammate(t, owner, { role: 'admin' })
    const p = await newProject(creator)
    const denied = await t.request('DELETE', `/api/projects/${p.slug}`, { token: admin.token })
    expect(denied.status).toBe(403)
    expect(await projectRow(p.id)).toBeDefined()
    expect((await t.request('DELETE', `/api/projects/${p.slug}`, { token: creator.token })).status).toBe(200)
    expect((await t.deps.db.read((q) => q.select().from(projects).where(eq(projects.id, p.id)).limit(1)))[0]).toBeUndefined()
  })

  it('answers 404 to non-members', async () => {
    const owner = await createUser(t)
    const p = await newProject(owner)
    const stranger = await createUser(t)
    expect((await t.request('DELETE', `/api/projects/${p.slug}`, { token: stranger.token })).status).toBe(404)
    expect(await projectRow(p.id)).toBeDefined()
  })

  it('frees a slot under the project limit', async () => {
    const owner = await createUser(t, { plan: 'free' })
    const a = await newProject(owner, { name: 'A' })
    await newProject(owner, { name: 'B' })
    await t.request('DELETE', `/api/projects/${a.slug}`, { token: owner.token })
    expect((await t.request('POST', '/api/projects', { token: owner.token, body: { name: 'C' } })).status).toBe(201)
  })
})
