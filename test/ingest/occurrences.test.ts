import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'
import { addMember, b64, pngDataUrl, sdkProject } from '../sdk/sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const title = 'Crash in the boss arena'

/** A report submitted once plus `extra` submissions of it from devices d1..dN, a minute apart, each with its own text. */
async function stacked(extra: number) {
  const ctx = await sdkProject(t)
  const first = await t.request('POST', '/api/bugs/submit', {
    apiKey: ctx.key,
    body: { title, description: 'Game closes', device_info: 'd0', category: 'crash', priority: 'high', reporter_email: 'first@example.com', attachments: [{ filename: 'first.log', data: b64('first log') }] },
  })
  for (let i = 1; i <= extra; i++) {
    t.clock.advance(60_000)
    const res = await t.request('POST', '/api/bugs/submit', {
      apiKey: ctx.key,
      body: {
        title,
        description: `Stack ${i}`,
        steps_to_reproduce: `steps ${i}`,
        device_info: `d${i}`,
        os_info: `os${i}`,
        platform: `p${i}`,
        game_version: `v${i}`,
        steam_id: `s${i}`,
        reporter_name: `r${i}`,
        reporter_email: `r${i}@example.com`,
        metadata: { i },
        screenshot: i === 1 ? pngDataUrl() : undefined,
        attachments: [{ filename: `log${i}.txt`, data: b64(`log ${i}`) }],
      },
    })
    expect(res.status).toBe(200)
  }
  return { ...ctx, number: first.body.data.report_number as number, id: first.body.data.id as string }
}

const occurrencesOf = async (slug: string, number: number, token: string, query = '') =>
  (await t.request('GET', `/api/projects/${slug}/bugs/${number}/occurrences${query}`, { token })).body.data

describe('GET /api/projects/:slug/bugs/:number/occurrences', () => {
  it('pages every submission, the first included, newest first, each with its own evidence', async () => {
    const { owner, project, number } = await stacked(52)
    const p1 = await occurrencesOf(project.slug, number, owner.token)
    expect(p1).toMatchObject({ total: 53, page: 1, per_page: 50 })
    expect(p1.occurrences).toHaveLength(50)
    expect(p1.occurrences[0]).toEqual({
      id: expect.any(String),
      title,
      description: 'Stack 52',
      steps_to_reproduce: 'steps 52',
      expected_behavior: '',
      actual_behavior: '',
      source: 'user',
      error_type: '',
      device_info: 'd52',
      os_info: 'os52',
      platform: 'p52',
      runtime: '',
      browser: '',
      environment: '',
      game_version: 'v52',
      player_id: 's52',
      reporter_name: 'r52',
      reporter_email: 'r52@example.com',
      metadata: { i: 52 },
      screenshot_url: null,
      attachments: [{ id: expect.any(String), file_name: 'log52.txt', file_size: 6, mime_type: 'text/plain', file_url: expect.stringMatching(/^http:\/\/glitchbox\.test\/api\/files\//) }],
      client: null,
      event_id: null,
      created_at: t.clock.now().toISOString(),
    })
    const p2 = await occurrencesOf(project.slug, number, owner.token, '?page=2')
    expect(p2.occurrences.map((o: any) => o.device_info)).toEqual(['d2', 'd1', 'd0'])
    expect(p2.occurrences[1].screenshot_url).toMatch(/^http:\/\/glitchbox\.test\/api\/files\/.+\.png$/)
    const oldest = await occurrencesOf(project.slug, number, owner.token, '?order=oldest')
    expect(oldest.occurrences[0]).toMatchObject({ description: 'Game closes', reporter_email: 'first@example.com', attachments: [{ file_name: 'first.log' }] })
  })

  it('keeps absent metadata as NULL', async () => {
    const { key } = await sdkProject(t)
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'x', description: 'y' } })
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'x', description: 'y' } })
    expect((await sqlRows(t, 'SELECT metadata FROM report_occurrences'))).toEqual([{ metadata: null }, { metadata: null }])
  })

  it('answers 404 to non-members and for unknown numbers, 400 for a bad page or order, 401 without a session', async () => {
    const { project, number, owner } = await stacked(1)
    const stranger = await createUser(t)
    const base = `/api/projects/${project.slug}/bugs/${number}/occurrences`
    expect((await t.request('GET', base, { token: stranger.token })).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/999/occurrences`, { token: owner.token })).status).toBe(404)
    expect((await t.request('GET', `${base}?page=0`, { token: owner.token })).status).toBe(400)
    expect((await t.request('GET', `${base}?order=random`, { token: owner.token })).status).toBe(400)
    expect((await t.request('GET', base)).status).toBe(401)
  })

  it('answers 403 to a member without bugs.view', async () => {
    const { project, number, owner } = await stacked(1)
    const token = await addMember(t, owner, { 'bugs.view': false })
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token })).status).toBe(403)
  })
})

describe('GET /api/projects/:slug/bugs/:number/screenshots', () => {
  it("lists every occurrence's screenshot, newest first, with the occurrence that sent it", async () => {
    const { key, project, owner } = await sdkProject(t)
    const sent = [
      { game_version: '1.0', platform: 'Windows', reporter_name: 'Ann', screenshot: pngDataUrl() },
      { game_version: '1.1', platform: 'Linux', reporter_name: 'Bob' },
      { game_version: '1.2', platform: 'macOS', player_id: 'p-3', screenshot: pngDataUrl() },
    ]
    for (const extra of sent) {
      t.clock.advance(60_000)
      expect((await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title, description: 'Frozen.', ...extra } })).status).toBeLessThan(300)
    }
    const res = await t.request('GET', `/api/projects/${project.slug}/bugs/1/screenshots`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.body.data.total).toBe(2)
    expect(res.body.data.screenshots.map((s: { game_version: string; platform: string; player: string }) => [s.game_version, s.platform, s.player])).toEqual([
      ['1.2', 'macOS', 'p-3'],
      ['1.0', 'Windows', 'Ann'],
    ])
    const occurrences = (await occurrencesOf(project.slug, 1, owner.token)).occurrences
    expect(res.body.data.screenshots.map((s: { occurrence_id: string; url: string }) => [s.occurrence_id, s.url])).toEqual(
      occurrences.filter((o: { screenshot_url: string | null }) => o.screenshot_url).map((o: { id: string; screenshot_url: string }) => [o.id, o.screenshot_url]),
    )
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/9/screenshots`, { token: owner.token })).status).toBe(404)
    const blind = await addMember(t, owner, { 'bugs.view': false })
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/1/screenshots`, { token: blind })).status).toBe(403)
  })
})

describe('POST /api/projects/:slug/bugs/:number/split', () => {
  it("makes a report of the chosen occurrences' own evidence, moves their files and counts both reports again", async () => {
    const { owner, project, number, id } = await stacked(4)
    const list = (await occurrencesOf(project.slug, number, owner.token)).occurrences
    const byDevice = Object.fromEntries(list.map((o: any) => [o.device_info, o.id]))
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [byDevice.d3, byDevice.d1] } })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ id: expect.any(String), report_number: number + 1, occurrences: 2 })
    const [created] = (await sqlRows(t, 'SELECT * FROM reports WHERE id = ?', res.body.data.id))
    // The oldest chosen occurrence (d1) is the new report's description: its own stack trace, not the original's.
    expect(created).toMatchObject({ description: 'Stack 1', steps_to_reproduce: 'steps 1', category: 'crash', priority: 'high', device_info: 'd1', os_info: 'os1', platform: 'p1', game_version: 'v1', player_id: 's1', reporter_name: 'r1', occurrence_count: 2, player_count: 2, created_by: owner.user.id })
    expect(created!.screenshot_key).toMatch(/\.png$/)
    expect(JSON.parse(created!.versions)).toEqual(['v3', 'v1'])
    expect((await sqlRows(t, 'SELECT device_info FROM report_occurrences WHERE report_id = ? ORDER BY seq', res.body.data.id))).toEqual([{ device_info: 'd1' }, { device_info: 'd3' }])
    expect((await sqlRows(t, 'SELECT file_name FROM attachments WHERE report_id = ? ORDER BY file_name', res.body.data.id))).toEqual([{ file_name: 'log1.txt' }, { file_name: 'log3.txt' }])
    expect((await sqlRows(t, 'SELECT device_info FROM report_occurrences WHERE report_id = ? ORDER BY seq', id))).toEqual([{ device_info: 'd0' }, { device_info: 'd2' }, { device_info: 'd4' }])
    expect((await sqlRows(t, 'SELECT occurrence_count, player_count, last_version FROM reports WHERE id = ?', id))).toEqual([{ occurrence_count: 3, player_count: 2, last_version: 'v4' }])
    expect((await sqlRows(t, "SELECT new_value FROM activity WHERE report_id = ? AND action = 'split'", id))).toEqual([{ new_value: String(number + 1) }])
    const moved = await t.request('GET', `/api/projects/${project.slug}/bugs/${number + 1}`, { token: owner.token })
    expect(moved.body.data.bug).toMatchObject({ description: 'Stack 1', occurrence_count: 2, player_count: 2, first_version: 'v1', last_version: 'v3' })
  })

  it('keeps later submissions of the same bug going to the original report', async () => {
    const { owner, project, number, id, key } = await stacked(2)
    const list = (await occurrencesOf(project.slug, number, owner.token)).occurrences
    await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [list[0].id] } })
    const again = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title, description: 'again' } })
    expect(again.body.data.id).toBe(id)
  })

  it.each([
    ['an empty list', () => ({ occurrence_ids: [] })],
    ['over 100 ids', () => ({ occurrence_ids: Array.from({ length: 101 }, (_, i) => `id${i}`) })],
    ['an id of no occurrence of this report', () => ({ occurrence_ids: ['not-an-occurrence'] })],
    ['no body field', () => ({})],
    ['every occurrence of the report', async () => ({ occurrence_ids: (await sqlRows(t, 'SELECT id FROM report_occurrences')).map((r) => r.id) })],
  ])('answers %s with 400 and changes nothing', async (_n, body) => {
    const { owner, project, number } = await stacked(2)
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: await body() })
    expect(res.status).toBe(400)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports'))[0]!.n).toBe(1)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM report_occurrences WHERE report_id = (SELECT id FROM reports)'))[0]!.n).toBe(3)
  })

  it('refuses occurrences of another report (400) and unknown reports (404)', async () => {
    const { owner, project, number, key } = await stacked(1)
    const other = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Other bug', description: 'x' } })
    const foreignOccurrence = (await sqlRows(t, 'SELECT id FROM report_occurrences WHERE report_id = ?', other.body.data.id))[0]!.id
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [foreignOccurrence] } })).status).toBe(400)
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/999/split`, { token: owner.token, body: { occurrence_ids: [foreignOccurrence] } })).status).toBe(404)
  })

  it('answers 403 to a member without bugs.edit and 404 to non-members', async () => {
    const { owner, project, number } = await stacked(1)
    const occurrence = (await sqlRows(t, 'SELECT id FROM report_occurrences'))[0]!.id
    const token = await addMember(t, owner, { 'bugs.edit': false })
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token, body: { occurrence_ids: [occurrence] } })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: stranger.token, body: { occurrence_ids: [occurrence] } })).status).toBe(404)
  })
})

describe('POST /api/projects/:slug/bugs/:number/merge', () => {
  /** Three reports of one project, the second and third with a comment, a label, votes and a file each. */
  async function three() {
    const ctx = await sdkProject(t)
    const submit = (title: string, player: string, version: string) =>
      t.request('POST', '/api/bugs/submit', { apiKey: ctx.key, body: { title, description: `${title} text`, steam_id: player, game_version: version, attachments: [{ filename: `${player}.log`, data: b64(player) }] } })
    const a = (await submit('Shop crash', 'p1', '1.0')).body.data
    const b = (await submit('Store crashes on buy', 'p2', '1.1')).body.data
    const c = (await submit('Crash when buying', 'p1', '1.2')).body.data
    const base = `/api/projects/${ctx.project.slug}/bugs`
    const label = (await t.request('POST', `/api/projects/${ctx.project.slug}/labels`, { token: ctx.owner.token, body: { name: 'shop' } })).body.data
    for (const r of [b, c]) {
      expect((await t.request('POST', `${base}/${r.report_number}/comments`, { token: ctx.owner.token, body: { body: `note on #${r.report_number}` } })).status).toBe(201)
      expect((await t.request('POST', `${base}/${r.report_number}/labels`, { token: ctx.owner.token, body: { label_id: label.id } })).status).toBe(200)
    }
    const seq = async (id: string) => (await sqlRows(t, 'SELECT seq FROM reports WHERE id = ?', id))[0]!.seq
    // One voter voted for a and b: after the merge they count once.
    for (const [r, voter] of [[a, 'v1'], [b, 'v1'], [b, 'v2'], [c, 'v3']] as const) await t.deps.db.write(async (q) => execute(q, sql`INSERT INTO report_votes (report_seq, voter_key, created_at) VALUES (${await seq(r.id)}, ${voter}, 0)`))
    for (const [r, n] of [[a, 1], [b, 2], [c, 1]] as const) await t.deps.db.write((q) => execute(q, sql`UPDATE reports SET upvotes = ${n} WHERE id = ${r.id}`))
    return { ...ctx, a, b, c, base }
  }

  it('folds reports into one: occurrences with their files, comments, labels and votes; their numbers redirect to it', async () => {
    const { owner, a, b, c, base } = await three()
    const res = await t.request('POST', `${base}/${a.report_number}/merge`, { token: owner.token, body: { numbers: [c.report_number, b.report_number] } })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ id: a.id, report_number: a.report_number, merged: [b.report_number, c.report_number], occurrence_count: 3, player_count: 2, upvotes: 3 })
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM report_occurrences WHERE report_id = ?', a.id))[0]!.n).toBe(3)
    expect((await sqlRows(t, 'SELECT file_name FROM attachments WHERE report_id = ? ORDER BY file_name', a.id)).map((r) => r.file_name)).toEqual(['p1.log', 'p1.log', 'p2.log'])
    expect((await sqlRows(t, 'SELECT body FROM comments WHERE report_id = ? ORDER BY body', a.id)).map((r) => r.body)).toEqual([`note on #${b.report_number}`, `note on #${c.report_number}`])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM report_labels WHERE report_id = ?', a.id))[0]!.n).toBe(1)
    const read = await t.request('GET', `${base}/${a.report_number}`, { token: owner.token })
    expect(read.body.data.bug).toMatchObject({ occurrence_count: 3, player_count: 2, first_version: '1.0', last_version: '1.2', versions: ['1.2', '1.1', '1.0'], upvotes: 3 })
    // The merged numbers leave the list and redirect their reads to the survivor.
    const list = await t.request('GET', base, { token: owner.token })
    expect(list.body.data.bugs.map((r: any) => r.report_number)).toEqual([a.report_number])
    const gone = await t.request('GET', `${base}/${b.report_number}`, { token: owner.token })
    expect(gone.status).toBe(308)
    expect(gone.headers.get('location')).toBe(`${base}/${a.report_number}`)
    expect(gone.body).toMatchObject({ ok: false, merged_into: a.report_number })
    const v1 = base.replace('/api/', '/api/v1/')
    expect((await t.request('GET', `${v1}/${c.report_number}`, { token: owner.token })).headers.get('location')).toBe(`${v1}/${a.report_number}`)
    expect((await sqlRows(t, "SELECT action FROM audit_log WHERE action = 'reports.merged'"))).toHaveLength(1)
    expect((await sqlRows(t, "SELECT new_value FROM activity WHERE report_id = ? AND action = 'merged'", a.id))).toEqual([{ new_value: JSON.stringify([b.report_number, c.report_number]) }])
  })

  it('is undone by splitting the moved occurrences out again', async () => {
    const { owner, a, b, base } = await three()
    await t.request('POST', `${base}/${a.report_number}/merge`, { token: owner.token, body: { numbers: [b.report_number] } })
    const moved = (await sqlRows(t, 'SELECT o.id FROM report_occurrences o WHERE o.report_id = ? AND o.player_id = ?', a.id, 'p2')).map((r) => r.id)
    const split = await t.request('POST', `${base}/${a.report_number}/split`, { token: owner.token, body: { occurrence_ids: moved } })
    expect(split.status).toBe(201)
    const back = await t.request('GET', `${base}/${split.body.data.report_number}`, { token: owner.token })
    expect(back.body.data.bug).toMatchObject({ title: 'Store crashes on buy', description: 'Store crashes on buy text', player_count: 1, occurrence_count: 1 })
    expect((await sqlRows(t, 'SELECT occurrence_count FROM reports WHERE id = ?', a.id))).toEqual([{ occurrence_count: 1 }])
  })

  it.each([
    ['the report itself', (r: any) => [r.a.report_number]],
    ['an unknown number', () => [999]],
    ['an empty list', () => []],
    ['over 100 numbers', () => Array.from({ length: 101 }, (_, i) => i + 2)],
    ['a deleted report', async (r: any) => (await t.deps.db.write((q) => execute(q, sql`UPDATE reports SET deleted_at = 1 WHERE id = ${r.c.id}`)), [r.c.report_number])],
  ])('answers 400 for %s and changes nothing', async (_n, numbers) => {
    const ctx = await three()
    const res = await t.request('POST', `${ctx.base}/${ctx.a.report_number}/merge`, { token: ctx.owner.token, body: { numbers: await numbers(ctx) } })
    expect(res.status).toBe(400)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM report_occurrences WHERE report_id = ?', ctx.a.id))[0]!.n).toBe(1)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports WHERE merged_into IS NOT NULL'))[0]!.n).toBe(0)
  })

  it("never merges another project's report, and needs bugs.edit", async () => {
    const ctx = await three()
    const other = await sdkProject(t)
    const foreign = (await t.request('POST', '/api/bugs/submit', { apiKey: other.key, body: { title: 'x', description: 'y' } })).body.data
    expect(foreign.report_number).toBe(1)
    const token = await addMember(t, ctx.owner, { 'bugs.edit': false })
    expect((await t.request('POST', `${ctx.base}/${ctx.a.report_number}/merge`, { token, body: { numbers: [ctx.b.report_number] } })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('POST', `${ctx.base}/${ctx.a.report_number}/merge`, { token: stranger.token, body: { numbers: [ctx.b.report_number] } })).status).toBe(404)
    expect((await t.request('POST', `/api/projects/${other.project.slug}/bugs/1/merge`, { token: ctx.owner.token, body: { numbers: [ctx.b.report_number] } })).status).toBe(404)
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM reports WHERE merged_into IS NOT NULL'))[0]!.n).toBe(0)
  })
})
