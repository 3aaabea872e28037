import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { labels, reportLabels } from '../../src/modules/labels/labels.table'
import { COUNT_CAP } from '../../src/modules/reports/reports.list'
import { reports } from '../../src/modules/reports/reports.table'
import { createReportIn, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { deny, team } from './setup'
import { sqlRun } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

type Bug = { report_number: number }
const numbers = (body: { data: { bugs: Bug[] } }) => body.data.bugs.map((b) => b.report_number)

/** Six reports with varied fields; #3 carries a label, #5 is assigned to the teammate, #6 is deleted. */
async function seeded() {
  const ctx = await team(t)
  const { project, mate } = ctx
  const add = async (input: Parameters<typeof createReportIn>[2]) => {
    t.clock.advance(1000)
    return await createReportIn(t, project, input)
  }
  await add({ title: 'Crash on load', description: 'NullReferenceException in Boot', priority: 'critical', category: 'crash' })
  await add({ title: 'Audio stutter in menu', description: 'music skips', priority: 'low', category: 'audio', source: 'system' })
  const third = await add({ title: 'Texture flicker', description: 'shadows flicker near water', priority: 'high', category: 'visual' })
  await add({ title: 'Boss fight crash', description: 'TypeError when the dragon lands', priority: 'high', category: 'crash' })
  const fifth = await add({ title: 'Menu button misaligned', description: 'ui offset', priority: 'medium', category: 'ui' })
  await add({ title: 'Deleted crash', description: 'gone', priority: 'critical' })
  await t.deps.db.write((q) => q.insert(labels).values({ id: 'lab1', projectId: project.id, name: 'regression', color: '#123456', createdAt: t.clock.now() }))
  await t.deps.db.write((q) => q.insert(reportLabels).values({ reportId: third.id, reportSeq: third.seq, labelId: 'lab1' }))
  await t.deps.db.write((q) => q.update(reports).set({ assignedTo: mate.user.id, upvotes: 7, status: 'in_progress' }).where(eq(reports.id, fifth.id)))
  await t.deps.db.write((q) => q.update(reports).set({ upvotes: 3 }).where(eq(reports.reportNumber, 2)))
  await t.request('DELETE', `${ctx.base}/bugs/6`, { token: ctx.owner.token })
  return ctx
}

describe('GET /projects/:slug/bugs', () => {
  it('returns the first page newest first with list items and labels', async () => {
    const { owner, base, mate } = await seeded()
    const res = await t.request('GET', `${base}/bugs`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ total: 5, total_capped: false, page: 1, limit: 25, total_pages: 1 })
    expect(numbers(res.body)).toEqual([5, 4, 3, 2, 1])
    const item = res.body.data.bugs.find((b: Bug) => b.report_number === 3)
    expect(Object.keys(item).sort()).toEqual(
      [
        'assigned_to',
        'category',
        'created_at',
        'error_type',
        'game_version',
        'id',
        'is_private',
        'labels',
        'occurrences',
        'occurrence_count',
        'player_count',
        'first_seen',
        'last_seen',
        'first_version',
        'last_version',
        'versions',
        'platform',
        'priority',
        'report_number',
        'sla',
        'source',
        'sparkline',
        'status',
        'title',
        'updated_at',
        'upvotes',
      ].sort(),
    )
    expect(item.labels).toEqual([{ id: 'lab1', name: 'regression', color: '#123456' }])
    expect(res.body.data.bugs[0]).toMatchObject({ report_number: 5, assigned_to: mate.user.id, status: 'in_progress', labels: [] })
  })

  it.each([
    ['status', 'status=in_progress', [5]],
    ['priority', 'priority=high', [4, 3]],
    ['category', 'category=crash', [4, 1]],
    ['two filters', 'priority=critical&category=crash', [1]],
    ['status and priority', 'status=open&priority=high', [4, 3]],
    ['assigned_to unassigned', 'assigned_to=unassigned', [4, 3, 2, 1]],
    ['label', 'label=lab1', [3]],
    ['unknown label', 'label=nope', []],
    ['source system', 'source=system', [2]],
    ['source user', 'source=user', [5, 4, 3, 1]],
    ['error_type', 'error_type=TypeError', [4]],
    ['q one word', 'q=crash', [4, 1]],
    ['q words are ANDed', 'q=crash%20boss', [4]],
    ['q +must -not', 'q=%2Bcrash%20-dragon', [1]],
    ['q phrase out of order', 'q=%22crash%20fight%22', []],
    ['q phrase in order', 'q=%22boss%20fight%22', [4]],
    ['q prefix', 'q=flick*', [3]],
    ['q searches descriptions', 'q=dragon', [4]],
    ['q only exclusions', 'q=-crash', [5, 3, 2]],
    ['q excludes deleted reports', 'q=deleted', []],
    ['q with filters', 'q=crash&priority=critical', [1]],
    ['q without usable terms is ignored', 'q=***', [5, 4, 3, 2, 1]],
    ['q with FTS syntax is safe', 'q=NEAR(crash%20AND%20%22', []],
    ['q column filter in quotes is a plain word', 'q=%22title:crash%22', []],
    ['sort priority: rank then newest', 'sort=priority', [1, 4, 3, 5, 2]],
    ['sort upvotes', 'sort=upvotes', [5, 2, 4, 3, 1]],
    ['sort newest', 'sort=newest', [5, 4, 3, 2, 1]],
    ['q with sort priority', 'q=crash&sort=priority', [1, 4]],
  ])('filter %s', async (_name, qs, expected) => {
    const { owner, base } = await seeded()
    const res = await t.request('GET', `${base}/bugs?${qs}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(numbers(res.body)).toEqual(expected)
    expect(res.body.data.total).toBe(expected.length)
  })

  it('filters by assignee id', async () => {
    const { owner, base, mate } = await seeded()
    expect(numbers((await t.request('GET', `${base}/bugs?assigned_to=${mate.user.id}`, { token: owner.token })).body)).toEqual([5])
  })

  it('sorts by last update', async () => {
    const { owner, base } = await seeded()
    t.clock.advance(5000)
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { priority: 'high' } })
    expect(numbers((await t.request('GET', `${base}/bugs?sort=updated`, { token: owner.token })).body)[0]).toBe(2)
  })

  it.each([
    ['bad status', 'status=done', 'status'],
    ['bad priority', 'priority=urgent', 'priority'],
    ['bad sort', 'sort=oldest', 'sort'],
    ['page 0', 'page=0', 'page'],
    ['page not a number', 'page=abc', 'page'],
    ['bad source', 'source=bot', 'source'],
    ['unknown filter in q (issue 29)', 'q=crash%20foo:bar', 'unknown filter `foo:`'],
  ])('400 for %s', async (_name, qs, field) => {
    const { owner, base } = await team(t)
    const res = await t.request('GET', `${base}/bugs?${qs}`, { token: owner.token })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(field)
  })

  it('pages by 25 with totals', async () => {
    const { owner, project, base } = await team(t)
    for (let i = 0; i < 53; i++) await createReportIn(t, project, { priority: i % 2 ? 'high' : 'low' })
    const p1 = (await t.request('GET', `${base}/bugs`, { token: owner.token })).body.data
    expect(p1).toMatchObject({ total: 53, page: 1, limit: 25, total_pages: 3 })
    expect(p1.bugs[0].report_number).toBe(53)
    const p3 = (await t.request('GET', `${base}/bugs?page=3`, { token: owner.token })).body.data
    expect(p3.bugs.map((b: Bug) => b.report_number)).toEqual([3, 2, 1])
    expect((await t.request('GET', `${base}/bugs?page=4`, { token: owner.token })).body.data.bugs).toEqual([])
    const high = (await t.request('GET', `${base}/bugs?priority=high&page=2`, { token: owner.token })).body.data
    expect(high).toMatchObject({ total: 26, total_pages: 2, page: 2, total_capped: false })
    expect(high.bugs.map((b: Bug) => b.report_number)).toEqual([2])
  })

  it('caps filtered totals and flags it', async () => {
    const { owner, project, base } = await team(t)
    await insertMany(t, project, COUNT_CAP + 5)
    const all = (await t.request('GET', `${base}/bugs`, { token: owner.token })).body.data
    expect(all).toMatchObject({ total: COUNT_CAP + 5, total_capped: false })
    const filtered = (await t.request('GET', `${base}/bugs?status=open`, { token: owner.token })).body.data
    expect(filtered).toMatchObject({ total: COUNT_CAP, total_capped: true, total_pages: COUNT_CAP / 25 })
    expect(filtered.bugs).toHaveLength(25)
    // A term matching more than the cap, sorted by priority: the priority index drives the page.
    await sqlRun(t, 'UPDATE reports SET priority = ?, priority_rank = 0 WHERE report_number = 17', 'critical')
    const search = (await t.request('GET', `${base}/bugs?q=bug&sort=priority`, { token: owner.token })).body.data
    expect(search).toMatchObject({ total: COUNT_CAP, total_capped: true })
    expect(search.bugs.map((b: Bug) => b.report_number).slice(0, 3)).toEqual([17, COUNT_CAP + 5, COUNT_CAP + 4])
  })

  it('excluding a common word alone: newest first, capped total and deep pages stay exact', async () => {
    const { owner, project, base } = await team(t)
    const n = 3 * COUNT_CAP
    await insertMany(t, project, n, (i) => (i % 2 ? 'the lighthouse lamp is dark' : 'the door is stuck'))
    const list = async (q: string) => (await t.request('GET', `${base}/bugs?${q}`, { token: owner.token })).body.data
    const first = await list('q=-lighthouse')
    expect(first).toMatchObject({ total: COUNT_CAP, total_capped: true })
    expect(numbers({ data: first }).slice(0, 3)).toEqual([n, n - 2, n - 4])
    const last = await list(`q=-lighthouse&page=${COUNT_CAP / 25}`)
    expect(numbers({ data: last })).toEqual(Array.from({ length: 25 }, (_, k) => n - 2 * (COUNT_CAP - 25 + k)))
    // 30,000 reports written with every index and trigger: slow on a busy CI machine.
  }, 120_000)

  it('excluding a word most recent reports hold still finds the older ones', async () => {
    const { owner, project, base } = await team(t)
    const n = 3 * COUNT_CAP
    await insertMany(t, project, n, (i) => (i > 5000 ? 'the lighthouse lamp is dark' : 'the door is stuck'))
    const body = (await t.request('GET', `${base}/bugs?q=-lighthouse`, { token: owner.token })).body.data
    expect(body).toMatchObject({ total: 5000, total_capped: false })
    expect(numbers({ data: body }).slice(0, 2)).toEqual([5000, 4999])
    // 30,000 reports written with every index and trigger, as above.
  }, 120_000)

  it('404 for outsiders, 403 without bugs.view', async () => {
    const { mate, outsider, project, base } = await team(t)
    expect((await t.request('GET', `${base}/bugs`, { token: outsider.token })).status).toBe(404)
    expect((await t.request('GET', `${base}/bugs`)).status).toBe(401)
    await deny(t, mate, project, 'bugs.view')
    expect((await t.request('GET', `${base}/bugs`, { token: mate.token })).status).toBe(403)
  })

  it('never shows reports of another project', async () => {
    const { owner, base } = await seeded()
    const other = await team(t)
    await createReportIn(t, other.project, { title: 'Crash elsewhere' })
    expect(numbers((await t.request('GET', `${base}/bugs?q=elsewhere`, { token: owner.token })).body)).toEqual([])
    expect(numbers((await t.request('GET', `${other.base}/bugs`, { token: other.owner.token })).body)).toEqual([1])
  })
})

/** Many live reports straight into the table (the FTS triggers still run), for paging and caps. */
async function insertMany(t: TestApp, project: TestProject, n: number, description: (i: number) => string = () => 'd') {
  const now = t.clock.now()
  const rows = Array.from({ length: n }, (_, k) => ({ id: crypto.randomUUID(), projectId: project.id, reportNumber: k + 1, title: `Bug ${k + 1}`, description: description(k + 1), createdAt: now, updatedAt: now }))
  await t.deps.db.write(async (tx) => {
    for (let i = 0; i < n; i += 500) await tx.insert(reports).values(rows.slice(i, i + 500))
  })
  await sqlRun(t, 'UPDATE projects SET live_report_count = ?, last_report_number = ? WHERE id = ?', n, n, project.id)
}

describe('GET /projects/:slug/bugs/similar', () => {
  it('ranks live reports of the project by title words, at most 10', async () => {
    const { owner, project, base } = await seeded()
    for (let i = 0; i < 12; i++) await createReportIn(t, project, { title: `Inventory crash ${i}` })
    const res = await t.request('GET', `${base}/bugs/similar?title=${encodeURIComponent('Crash when the boss fight starts')}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(10)
    expect(res.body.data[0]).toEqual({ report_number: 4, title: 'Boss fight crash', status: 'open', priority: 'high', created_at: expect.any(String) })
    expect(res.body.data.map((r: Bug) => r.report_number)).not.toContain(6)
  })

  it.each([
    ['too short', 'ab'],
    ['only punctuation', '?!?!'],
    ['only stop words', 'the and of'],
    ['no match', 'zeppelin'],
    ['FTS syntax', '"NEAR( AND'],
  ])('empty for %s', async (_name, title) => {
    const { owner, base } = await seeded()
    const res = await t.request('GET', `${base}/bugs/similar?title=${encodeURIComponent(title)}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([])
  })

  it('400 without title, 404 for outsiders', async () => {
    const { owner, outsider, base } = await seeded()
    const res = await t.request('GET', `${base}/bugs/similar`, { token: owner.token })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain('title')
    expect((await t.request('GET', `${base}/bugs/similar?title=crash`, { token: outsider.token })).status).toBe(404)
  })
})

describe('GET /projects/:slug/error-types', () => {
  it('counts live reports per error class, most common first', async () => {
    const { owner, project, base } = await seeded()
    await createReportIn(t, project, { title: 'TypeError: x is undefined' })
    await createReportIn(t, project, { title: '[Error] TypeError: y' })
    const res = await t.request('GET', `${base}/error-types`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual([
      { error_type: 'TypeError', count: 3 },
      { error_type: 'NullReferenceException', count: 1 },
    ])
    await t.request('DELETE', `${base}/bugs/1`, { token: owner.token })
    expect((await t.request('GET', `${base}/error-types`, { token: owner.token })).body.data).toEqual([{ error_type: 'TypeError', count: 3 }])
  })

  it('404 for outsiders', async () => {
    const { outsider, base } = await team(t)
    expect((await t.request('GET', `${base}/error-types`, { token: outsider.token })).status).toBe(404)
  })
})
