import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'
import { sdkProject } from '../sdk/sdk-helpers'
import { unityError } from '../helpers/crash-payloads'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const submit = (key: string, body: Record<string, unknown>) => t.request('POST', '/api/bugs/submit', { apiKey: key, body })

describe('grouping by stack (issue 22)', () => {
  it('files one Unity message thrown in two places as two reports, and one place with two messages as one', async () => {
    const { key, owner, project } = await sdkProject(t)
    const inventory = await submit(key, unityError('InventoryPanel.cs', 'InventoryPanel.Refresh', 42))
    const boost = await submit(key, unityError('BoostController.cs', 'BoostController.Update', 17))
    expect([inventory.status, boost.status]).toEqual([201, 201])
    expect(boost.body.data.report_number).not.toBe(inventory.body.data.report_number)
    // Same place, another message and another line: the same crash.
    const again = await submit(key, unityError('InventoryPanel.cs', 'InventoryPanel.Refresh', 57, { title: '[Error] NullReferenceException: slot 3 was null' }))
    expect(again.status).toBe(200)
    expect(again.body.data).toMatchObject({ id: inventory.body.data.id, deduplicated: true })
    const read = await t.request('GET', `/api/projects/${project.slug}/bugs/${inventory.body.data.report_number}`, { token: owner.token })
    expect(read.body.data.bug).toMatchObject({ grouping_label: 'NullReferenceException at InventoryPanel.Refresh (InventoryPanel.cs)', occurrence_count: 2, sentiment_score: null, source: 'system' })
    expect(read.body.data.bug.fingerprint).toMatch(/^[0-9a-f]{32}$/)
  })

  it('groups one Unreal crash whose title carries different faulting addresses', async () => {
    const { key } = await sdkProject(t)
    const answers = []
    for (const address of ['0x40', '0x48', '0x00000000DEADBEEF']) {
      answers.push(await submit(key, { title: `[Error] EXCEPTION_ACCESS_VIOLATION reading address ${address}`, description: 'Unhandled Exception: EXCEPTION_ACCESS_VIOLATION', category: 'crash' }))
    }
    expect(answers.map((a) => a.status)).toEqual([201, 200, 200])
    expect((await sqlRows(t, 'SELECT title, occurrence_count FROM reports'))).toEqual([{ title: '[Error] EXCEPTION_ACCESS_VIOLATION reading address 0x40', occurrence_count: 3 }])
    expect((await sqlRows(t, 'SELECT title FROM report_occurrences ORDER BY seq')).map((r) => r.title.split(' ').pop())).toEqual(['0x40', '0x48', '0x00000000DEADBEEF'])
  })

  it("honours the client's own fingerprint, with {{ default }} standing for Glitchbox's", async () => {
    const { key } = await sdkProject(t)
    const a = await submit(key, { title: 'Payment failed: card declined', description: 'x', fingerprint: ['payments'] })
    const b = await submit(key, { title: 'Checkout froze', description: 'y', fingerprint: ['payments'] })
    expect(b.body.data).toMatchObject({ id: a.body.data.id, deduplicated: true })
    const c = await submit(key, unityError('Shop.cs', 'Shop.Buy', 1, { fingerprint: ['{{ default }}', 'eu'] }))
    const d = await submit(key, unityError('Shop.cs', 'Shop.Buy', 9, { fingerprint: ['{{default}}', 'eu'] }))
    const e = await submit(key, unityError('Shop.cs', 'Shop.Buy', 9))
    expect(d.body.data.id).toBe(c.body.data.id)
    expect(e.status).toBe(201)
    expect((await sqlRows(t, 'SELECT grouping_label FROM reports WHERE id = ?', c.body.data.id))).toEqual([{ grouping_label: 'NullReferenceException at Shop.Buy (Shop.cs) · eu' }])
    expect((await submit(key, { title: 'x', description: 'y', fingerprint: [] })).status).toBe(400)
  })

  it("keeps the spec's rule for players' reports: same title, same report; numbers are not placeholders", async () => {
    const { key } = await sdkProject(t)
    const a = await submit(key, { title: 'Door on level 3 is stuck', description: 'It will not open.' })
    expect((await submit(key, { title: 'door on level 3 is STUCK', description: 'Again' })).body.data.id).toBe(a.body.data.id)
    expect((await submit(key, { title: 'Door on level 4 is stuck', description: 'Another door' })).status).toBe(201)
  })
})

describe('regressions (issue 22)', () => {
  async function resolvedCrash(version: string) {
    const ctx = await sdkProject(t)
    const first = await submit(ctx.key, unityError('Save.cs', 'SaveSystem.Write', 10, { game_version: '1.1.0' }))
    await submit(ctx.key, unityError('Save.cs', 'SaveSystem.Write', 10, { game_version: version }))
    const number = first.body.data.report_number
    const resolve = await t.request('PATCH', `/api/projects/${ctx.project.slug}/bugs/${number}`, { token: ctx.owner.token, body: { status: 'resolved' } })
    expect(resolve.status).toBe(200)
    return { ...ctx, number, id: first.body.data.id }
  }

  it('records the newest version seen when a report is resolved', async () => {
    const { owner, project, number } = await resolvedCrash('1.2.0')
    const read = await t.request('GET', `/api/projects/${project.slug}/bugs/${number}`, { token: owner.token })
    expect(read.body.data.bug).toMatchObject({ status: 'resolved', resolved_in_version: '1.2.0', versions: ['1.2.0', '1.1.0'] })
  })

  it('adds an occurrence from the same or an older build without reopening', async () => {
    const { key, id } = await resolvedCrash('1.2.0')
    for (const v of ['1.2.0', '1.1.0', '1.2.0-beta']) {
      const res = await submit(key, unityError('Save.cs', 'SaveSystem.Write', 10, { game_version: v }))
      expect(res.status).toBe(200)
      expect(res.body.data.regression).toBeUndefined()
    }
    expect((await sqlRows(t, 'SELECT status, occurrence_count FROM reports WHERE id = ?', id))).toEqual([{ status: 'resolved', occurrence_count: 5 }])
  })

  it.each([
    ['a newer build', '1.3.0', '1.3.0'],
    ['a build with no version', undefined, ''],
  ])('reopens it as a regression from %s: activity, bug_updated, the regressions list and the answer say so', async (_n, version, stored) => {
    const { key, id, owner, project, number } = await resolvedCrash('1.2.0')
    const res = await submit(key, unityError('Save.cs', 'SaveSystem.Write', 10, version ? { game_version: version } : {}))
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ id, deduplicated: true, regression: { resolved_in_version: '1.2.0', version: stored } })
    expect(res.body.data.message).toMatch(/regression/)
    expect((await sqlRows(t, 'SELECT status, regressed_in_version FROM reports WHERE id = ?', id))).toEqual([{ status: 'open', regressed_in_version: stored }])
    expect((await sqlRows(t, "SELECT action, field, old_value, new_value FROM activity WHERE report_id = ? AND action IN ('regressed', 'updated') ORDER BY seq", id)).slice(-2)).toEqual([
      { action: 'updated', field: 'status', old_value: 'resolved', new_value: 'open' },
      { action: 'regressed', field: null, old_value: '1.2.0', new_value: version ?? null },
    ])
    const events = (await sqlRows(t, "SELECT payload FROM jobs WHERE payload LIKE '%bug_updated%'")).map((j) => JSON.parse(j.payload))
    expect(events.some((e) => JSON.stringify(e).includes('"status":["resolved","open"]'))).toBe(true)
    const regressions = await t.request('GET', `/api/projects/${project.slug}/regressions`, { token: owner.token })
    expect(regressions.body.data).toEqual([expect.objectContaining({ original_bug_id: id, new_bug_id: id, status: 'confirmed', resolved_version: '1.2.0', regressed_version: stored, original_report_number: number })])
  })

  it('never adds occurrences to closed or won’t-fix reports: a new report is filed', async () => {
    const { key, owner, project } = await sdkProject(t)
    for (const status of ['closed', 'wont_fix']) {
      const a = await submit(key, unityError('Menu.cs', `Menu.${status}`, 1))
      await t.request('PATCH', `/api/projects/${project.slug}/bugs/${a.body.data.report_number}`, { token: owner.token, body: { status } })
      const b = await submit(key, unityError('Menu.cs', `Menu.${status}`, 1))
      expect(b.status).toBe(201)
      expect((await sqlRows(t, 'SELECT status, occurrence_count FROM reports WHERE id = ?', a.body.data.id))).toEqual([{ status, occurrence_count: 1 }])
    }
  })
})

describe('counts on every report (issue 22)', () => {
  it('counts events and distinct players of concurrent submissions, with first and last seen and versions', async () => {
    const { key, owner, project } = await sdkProject(t)
    const first = await submit(key, unityError('Boss.cs', 'Boss.Attack', 3, { steam_id: 'p0', game_version: '1.0.0' }))
    t.clock.advance(3_600_000)
    const players = Array.from({ length: 20 }, (_, i) => `p${i}`)
    const versions = ['1.0.0', '1.1.0', '1.2.0', '1.3.0-beta']
    const results = await Promise.all(players.map((p, i) => submit(key, unityError('Boss.cs', 'Boss.Attack', 3, { steam_id: p, game_version: versions[i % 4] }))))
    expect(results.every((r) => r.status === 200 && r.body.data.id === first.body.data.id)).toBe(true)
    const read = (await t.request('GET', `/api/projects/${project.slug}/bugs/${first.body.data.report_number}`, { token: owner.token })).body.data.bug
    expect(read).toMatchObject({ occurrence_count: 21, occurrences: 21, player_count: 20, first_version: '1.0.0', last_version: '1.3.0-beta' })
    expect(read.first_seen).toBe(new Date(t.clock.now().getTime() - 3_600_000).toISOString())
    expect(read.last_seen).toBe(t.clock.now().toISOString())
    expect([...read.versions].sort()).toEqual(versions)
    const list = (await t.request('GET', `/api/projects/${project.slug}/bugs`, { token: owner.token })).body.data.bugs
    expect(list[0]).toMatchObject({ occurrence_count: 21, player_count: 20, first_version: '1.0.0', last_version: '1.3.0-beta' })
  })

  it('sorts the list by last seen, events and players', async () => {
    const { key, owner, project } = await sdkProject(t)
    const file = async (title: string, times: number, player = (i: number) => `x${i}`) => {
      for (let i = 0; i < times; i++) {
        t.clock.advance(1000)
        await submit(key, { title, description: 'd', steam_id: player(i) })
      }
    }
    await file('Busy', 5, () => 'same-player')
    await file('Many players', 3)
    await file('Recent', 1)
    const sorted = async (sort: string) => (await t.request('GET', `/api/projects/${project.slug}/bugs?sort=${sort}`, { token: owner.token })).body.data.bugs.map((b: any) => b.title)
    expect(await sorted('occurrences')).toEqual(['Busy', 'Many players', 'Recent'])
    expect(await sorted('players')).toEqual(['Many players', 'Recent', 'Busy'])
    t.clock.advance(1000)
    await submit(key, { title: 'Busy', description: 'd' })
    expect(await sorted('last_seen')).toEqual(['Busy', 'Recent', 'Many players'])
  })

  it('exports the counts in CSV', async () => {
    const { key, owner, project } = await sdkProject(t)
    await submit(key, { title: 'Twice', description: 'd', steam_id: 'a', game_version: '2.0' })
    await submit(key, { title: 'Twice', description: 'd', steam_id: 'b', game_version: '2.1' })
    const res = await t.app.handle(new Request(`http://localhost/api/projects/${project.slug}/bugs/export`, { headers: { authorization: `Bearer ${owner.token}` } }))
    const [header, row] = (await res.text()).trim().split('\n')
    const cells = Object.fromEntries(header!.split(',').map((h, i) => [h, row!.split(',')[i]]))
    expect(cells).toMatchObject({ occurrence_count: '2', player_count: '2', first_version: '2.0', last_version: '2.1' })
    expect(cells.first_seen).toMatch(/^\d{4}-/)
    expect(cells.last_seen).toMatch(/^\d{4}-/)
  })
})

describe('the same answer one by one or together (issue 22)', () => {
  const inputs = [
    { title: 'Lighthouse door stuck open', description: 'I love the game but this door is terrible' },
    { title: 'Lighthouse door stuck', description: 'Door will not close' },
    { title: 'Lighthouse door stuck open', description: 'Same door, again' },
    unityError('Lamp.cs', 'Lamp.Toggle', 5),
    unityError('Lamp.cs', 'Lamp.Toggle', 8, { title: '[Error] NullReferenceException: lamp missing' }),
    { title: 'Great soundtrack, the lighthouse level', description: 'Amazing music, wonderful' },
  ]
  const answersOf = async (together: boolean, sent = inputs) => {
    const { key, project } = await sdkProject(t)
    const results = together ? await Promise.all(sent.map((b) => submit(key, b))) : await sent.reduce(async (acc, b) => [...(await acc), await submit(key, b)], Promise.resolve([] as any[]))
    const answers = results.map((r) => {
      const { id: _id, ...data } = r.body.data
      return { status: r.status, ...data }
    })
    return { answers, projectId: project.id }
  }

  it.skipIf(!onSqlite)('(SQLite: one writer decides them in the order they came) gives each submission the same status, grouping, possible duplicates and sentiment', async () => {
    const oneByOne = (await answersOf(false)).answers
    const together = (await answersOf(true)).answers
    expect(together).toEqual(oneByOne)
    expect(oneByOne.map((a) => a.status)).toEqual([201, 201, 200, 201, 200, 201])
    expect(oneByOne[1]!.possible_duplicates).toEqual([1])
    // A new report never lists itself.
    for (const a of oneByOne) expect(a.possible_duplicates).not.toContain(a.report_number)
    expect(oneByOne[3]!.sentiment_score).toBeNull()
    expect(oneByOne[0]!.sentiment_level).not.toBeNull()
  })

  // PostgreSQL runs the submissions' transactions side by side, and the reads before each one (the
  // key, the project) finish in any order: which came first is not the order sent. Each is decided
  // in its turn all the same, so the answers are those of the same submissions sent one by one in
  // the order they were decided (their occurrences' order).
  it.skipIf(onSqlite)('(PostgreSQL: in the order they were decided) gives each submission the same status, grouping, possible duplicates and sentiment', async () => {
    const { answers: together, projectId } = await answersOf(true)
    const decided = await sqlRows(t, 'SELECT title, description FROM report_occurrences WHERE project_id = ? ORDER BY seq', projectId)
    const order = decided.map((o) => inputs.findIndex((b) => b.title === o.title && b.description === o.description))
    expect([...order].sort()).toEqual(inputs.map((_, i) => i))
    const oneByOne = (await answersOf(false, order.map((i) => inputs[i]!))).answers
    expect(order.map((i) => together[i])).toEqual(oneByOne)
    expect(together.filter((a) => a.status === 201).map((a) => a.report_number).sort()).toEqual([1, 2, 3, 4])
  })
})
