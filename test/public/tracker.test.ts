import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addComment, putSettings, setReport } from './public-fixtures'

let t: TestApp
let owner: TestUser
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t, { name: 'Olivia Owner', email: 'olivia.owner@studio.example' })
  project = await createProject(t, owner)
})
afterEach(() => t.close())

const tracker = (query = '') => t.request('GET', `/api/tracker/${project.slug}${query}`)
// These tests are about what a public report shows: every report is published, as before the publish modes (test/public/publication.test.ts).
const enable = (extra: Record<string, unknown> = {}) => putSettings(t, owner, project, 'tracker-settings', { enabled: true, publish: 'all', include_auto_filed: true, ...extra })

describe('GET /api/tracker/{slug}', () => {
  it('is 404 for an unknown project, while the tracker is off, and again once it is turned off', async () => {
    await createReportIn(t, project)
    expect((await t.request('GET', '/api/tracker/no-such-project')).status).toBe(404)
    const off = await tracker()
    expect(off.status).toBe(404)
    expect(off.body.ok).toBe(false)
    await enable()
    expect((await tracker()).status).toBe(200)
    await putSettings(t, owner, project, 'tracker-settings', { enabled: false })
    expect((await tracker()).status).toBe(404)
    expect((await t.request('GET', `/api/tracker/${project.slug}/bugs/1`)).status).toBe(404)
  })

  it('answers the settings without `enabled`, and an empty page when there are no public bugs', async () => {
    await enable({ page_title: 'Known issues', accent_color: '#f80', custom_css: '.x{}', allow_search: true })
    const res = await tracker()
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      ok: true,
      data: {
        settings: {
          page_title: 'Known issues',
          page_description: '',
          accent_color: '#f80',
          logo_url: '',
          allow_search: true,
          allow_upvotes: false,
          show_categories: false,
          show_priority: false,
          show_status_filter: false,
          custom_css: '.x{}',
        },
        bugs: [],
        total: 0,
        page: 1,
        limit: 25,
        total_pages: 0,
      },
    })
  })

  it('lists only live public reports, most upvoted first and then newest, 25 per page', async () => {
    const made = []
    for (let i = 0; i < 30; i++) {
      made.push(await createReportIn(t, project, { title: `Bug ${i}` }))
      t.clock.advance(1000)
    }
    await setReport(t, made[3]!, { upvotes: 9 })
    await setReport(t, made[7]!, { upvotes: 4 })
    await setReport(t, made[0]!, { isPrivate: true, upvotes: 50 })
    await setReport(t, made[1]!, { deletedAt: t.clock.now(), upvotes: 40 })
    await enable()
    const first = await tracker()
    expect(first.body.data).toMatchObject({ total: 28, page: 1, limit: 25, total_pages: 2 })
    const numbers = first.body.data.bugs.map((b: { report_number: number }) => b.report_number)
    expect(numbers.slice(0, 4)).toEqual([4, 8, 30, 29])
    expect(numbers).toHaveLength(25)
    const second = await tracker('?page=2')
    expect(second.body.data.bugs.map((b: { report_number: number }) => b.report_number)).toEqual([6, 5, 3])
    expect(second.body.data.page).toBe(2)
    expect(numbers).not.toContain(1)
    expect(numbers).not.toContain(2)
  })

  it('shows category and priority only when the settings say so, and filters by status always and by category only when shown', async () => {
    await createReportIn(t, project, { title: 'Crash on boot', category: 'crash', priority: 'critical' })
    const audio = await createReportIn(t, project, { title: 'Music stutters', category: 'audio', priority: 'low' })
    await setReport(t, audio, { status: 'resolved' })
    await enable()
    const plain = await tracker()
    for (const bug of plain.body.data.bugs) {
      expect(bug).not.toHaveProperty('category')
      expect(bug).not.toHaveProperty('priority')
      expect(bug).toHaveProperty('status')
    }
    expect((await tracker('?category=crash')).body.data.total).toBe(2)
    expect((await tracker('?status=resolved')).body.data.bugs.map((b: { title: string }) => b.title)).toEqual(['Music stutters'])

    await putSettings(t, owner, project, 'tracker-settings', { show_categories: true, show_priority: true })
    const shown = await tracker('?category=crash')
    expect(shown.body.data.bugs).toEqual([expect.objectContaining({ title: 'Crash on boot', category: 'crash', priority: 'critical', status: 'open' })])
  })

  it('searches title and description only when search is allowed, and never fails on player punctuation', async () => {
    await createReportIn(t, project, { title: 'Inventory duplicates items', description: 'Swapping quickly clones swords' })
    await createReportIn(t, project, { title: 'Boss fight freezes', description: 'After phase two' })
    await enable()
    expect((await tracker('?q=inventory')).body.data.total).toBe(2)
    await putSettings(t, owner, project, 'tracker-settings', { allow_search: true })
    expect((await tracker('?q=inventory')).body.data.bugs.map((b: { title: string }) => b.title)).toEqual(['Inventory duplicates items'])
    expect((await tracker('?q=swor*')).body.data.total).toBe(1)
    expect((await tracker('?q=-inventory')).body.data.bugs.map((b: { title: string }) => b.title)).toEqual(['Boss fight freezes'])
    expect((await tracker(`?q=${encodeURIComponent('boss PHASE')}`)).body.data.total).toBe(1)
    for (const q of ['"', '""', '"unbalanced', 'NEAR(boss', 'boss OR', '*', 'title:boss', '-freezes', '^', "it's", 'AND']) {
      const res = await tracker(`?q=${encodeURIComponent(q)}`)
      expect(res.status, q).toBe(200)
    }
    expect((await tracker(`?q=${encodeURIComponent('boss OR inventory')}`)).body.data.total).toBe(2)
  })

  it.each([['?status=someday'], ['?category=bugs'], ['?page=0'], ['?page=abc']])('answers 400 to %s', async (query) => {
    await enable()
    const res = await tracker(query)
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
  })

  it('counts only public comments', async () => {
    const r = await createReportIn(t, project)
    await addComment(t, r, { authorId: owner.user.id, body: 'We are on it' })
    await addComment(t, r, { authorId: owner.user.id, body: 'Internal note', isInternal: true })
    await enable()
    expect((await tracker()).body.data.bugs[0].comment_count).toBe(1)
  })

  it('is served under /api/v1 too', async () => {
    await enable()
    expect((await t.request('GET', `/api/v1/tracker/${project.slug}`)).status).toBe(200)
  })

  it('answers the 31st request in a minute from one address with 429', async () => {
    await enable()
    const ip = '203.0.113.77'
    for (let i = 0; i < 30; i++) expect((await t.request('GET', `/api/tracker/${project.slug}`, { ip })).status).toBe(200)
    const limited = await t.request('GET', `/api/tracker/${project.slug}`, { ip })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
    expect((await t.request('GET', `/api/tracker/${project.slug}`, { ip: '203.0.113.78' })).status).toBe(200)
  })
})

describe('GET /api/tracker/{slug}/bugs/{number}', () => {
  it('shows one public report with its public comments, authors by display name only', async () => {
    const r = await createReportIn(t, project, { title: 'Save file lost', description: 'After the patch', category: 'gameplay' })
    const helper = await createUser(t, { name: 'Harry Helper', email: 'harry@studio.example' })
    const { users } = await import('../../src/modules/auth/auth.table')
    const { eq } = await import('drizzle-orm')
    await t.deps.db.write((q) => q.update(users).set({ displayName: 'Community Harry' }).where(eq(users.id, helper.user.id)))
    const c1 = await addComment(t, r, { authorId: owner.user.id, body: 'Looking into it' })
    await addComment(t, r, { authorId: owner.user.id, body: 'Root cause: bad migration', isInternal: true })
    const c3 = await addComment(t, r, { authorId: helper.user.id, body: 'Fixed in 1.2' })
    const c4 = await addComment(t, r, { authorId: null, body: 'From a removed account' })
    await enable({ show_categories: true })
    const res = await t.request('GET', `/api/tracker/${project.slug}/bugs/${r.reportNumber}`)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ report_number: 1, title: 'Save file lost', description: 'After the patch', category: 'gameplay', status: 'open', upvotes: 0, comment_count: 3 })
    expect(res.body.data).not.toHaveProperty('priority')
    expect(res.body.data.comments).toEqual([
      { id: c1, body: 'Looking into it', author_name: 'Olivia Owner', created_at: expect.any(String) },
      { id: c3, body: 'Fixed in 1.2', author_name: 'Community Harry', created_at: expect.any(String) },
      { id: c4, body: 'From a removed account', author_name: null, created_at: expect.any(String) },
    ])
  })

  it('is 404 for private, deleted, unknown and malformed numbers', async () => {
    const hidden = await createReportIn(t, project)
    const gone = await createReportIn(t, project)
    await setReport(t, hidden, { isPrivate: true })
    await setReport(t, gone, { deletedAt: t.clock.now() })
    await enable()
    for (const n of [hidden.reportNumber, gone.reportNumber, 99]) {
      const res = await t.request('GET', `/api/tracker/${project.slug}/bugs/${n}`)
      expect(res.status, String(n)).toBe(404)
      expect(res.body).toEqual({ ok: false, error: 'bug not found' })
    }
    expect([400, 404]).toContain((await t.request('GET', `/api/tracker/${project.slug}/bugs/abc`)).status)
  })
})

describe('what the public tracker never shows', () => {
  it('drops the stack trace and log sections game SDKs append to auto-filed errors', async () => {
    const description = 'Game froze in the shop\n\n--- Stack Trace ---\nat Shop.Buy() in C:/build/secret/Shop.cs:42\n\n--- Recent Logs ---\n[Info] token=abc'
    const r = await createReportIn(t, project, { title: '[Freeze] Main thread stalled', description, source: 'system' })
    await enable()
    const list = (await tracker()).body.data.bugs[0]
    const detail = (await t.request('GET', `/api/tracker/${project.slug}/bugs/${r.reportNumber}`)).body.data
    for (const bug of [list, detail]) expect(bug.description).toBe('Game froze in the shop')
  })

  it('leaks no private report, internal comment, reporter contact, player id, assignee, metadata or device data', async () => {
    const secrets = {
      reporterEmail: 'reporter-secret@player.example',
      reporterName: 'Secret Reporter Name',
      playerId: 'steam-76561198000000000',
      metadata: { session_token: 'metadata-secret-token' },
      platform: 'PlatformSecretX',
      osInfo: 'OsSecret 11',
      deviceInfo: 'DeviceSecret GPU',
      gameVersion: '9.9.9-secret',
      stepsToReproduce: 'steps-secret',
    }
    const visible = await createReportIn(t, project, { title: '[Error] NullReferenceException: boom', description: 'Public description', ...secrets })
    await setReport(t, visible, { assignedTo: owner.user.id, screenshotKey: 'screenshot-secret-key' })
    const privateOne = await createReportIn(t, project, { title: 'Private exploit details' })
    await setReport(t, privateOne, { isPrivate: true })
    const deleted = await createReportIn(t, project, { title: 'Deleted embarrassing bug' })
    await setReport(t, deleted, { deletedAt: t.clock.now() })
    await addComment(t, visible, { authorId: owner.user.id, body: 'Internal: customer is a VIP', isInternal: true })
    await addComment(t, visible, { authorId: owner.user.id, body: 'Thanks for the report' })
    await enable({ show_categories: true, show_priority: true, allow_search: true })

    const list = JSON.stringify((await tracker()).body)
    const detail = JSON.stringify((await t.request('GET', `/api/tracker/${project.slug}/bugs/${visible.reportNumber}`)).body)
    const searched = JSON.stringify((await tracker('?q=exploit')).body)
    expect(list).toContain('Public description')
    expect(detail).toContain('Thanks for the report')
    const forbidden = [
      ...Object.values(secrets).map((v) => (typeof v === 'string' ? v : JSON.stringify(v).slice(2, 15))),
      'metadata-secret-token',
      'screenshot-secret-key',
      owner.user.id,
      owner.user.email,
      visible.id,
      project.id,
      'NullReferenceException"',
      'error_type',
      'Private exploit details',
      'Deleted embarrassing bug',
      'customer is a VIP',
      'assigned',
      'reporter',
      'email',
    ]
    for (const text of [list, detail, searched]) for (const f of forbidden) expect(text, f).not.toContain(f)
  })
})
