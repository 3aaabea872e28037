import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addMember, pngDataUrl, rows, sdkProject } from './sdk-helpers'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const title = 'Crash in the boss arena'

/** A report submitted once plus `extra` stacked submissions from devices d1..dN, a minute apart. */
async function stacked(extra: number) {
  const ctx = await sdkProject(t)
  const first = await t.request('POST', '/api/bugs/submit', { apiKey: ctx.key, body: { title, description: 'Game closes', device_info: 'd0', category: 'crash', priority: 'high' } })
  for (let i = 1; i <= extra; i++) {
    t.clock.advance(60_000)
    const res = await t.request('POST', '/api/bugs/submit', { apiKey: ctx.key, body: { title, description: 'Same', device_info: `d${i}`, os_info: `os${i}`, platform: `p${i}`, game_version: `v${i}`, steam_id: `s${i}`, reporter_name: `r${i}`, metadata: { i }, screenshot: i === 1 ? pngDataUrl() : undefined } })
    expect(res.status).toBe(200)
  }
  return { ...ctx, number: first.body.data.report_number as number, id: first.body.data.id as string }
}

describe('GET /api/projects/:slug/bugs/:number/occurrences', () => {
  it('pages stacked submissions newest first, 50 per page', async () => {
    const { owner, project, number } = await stacked(52)
    const p1 = await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token: owner.token })
    expect(p1.status).toBe(200)
    expect(p1.body.data).toMatchObject({ total: 52, page: 1, per_page: 50 })
    expect(p1.body.data.occurrences).toHaveLength(50)
    expect(p1.body.data.occurrences[0]).toEqual({
      id: expect.any(String), device_info: 'd52', os_info: 'os52', platform: 'p52', game_version: 'v52', player_id: 's52', reporter_name: 'r52', metadata: { i: 52 }, screenshot_url: null,
      created_at: t.clock.now().toISOString(),
    })
    const p2 = await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences?page=2`, { token: owner.token })
    expect(p2.body.data.occurrences.map((o: any) => o.device_info)).toEqual(['d2', 'd1'])
    expect(p2.body.data.occurrences[1].screenshot_url).toMatch(/^http:\/\/glitchbox\.test\/api\/files\/.+\.png$/)
  })

  it('keeps absent metadata as NULL', async () => {
    const { key } = await sdkProject(t)
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'x', description: 'y' } })
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'x', description: 'y' } })
    expect(rows(t, 'SELECT metadata FROM report_occurrences')).toEqual([{ metadata: null }])
  })

  it('answers 404 to non-members and for unknown numbers, 400 for a bad page, 401 without a session', async () => {
    const { project, number, owner } = await stacked(1)
    const stranger = await createUser(t)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token: stranger.token })).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/999/occurrences`, { token: owner.token })).status).toBe(404)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences?page=0`, { token: owner.token })).status).toBe(400)
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`)).status).toBe(401)
  })

  it('answers 403 to a member without bugs.view', async () => {
    const { project, number, owner } = await stacked(1)
    const token = await addMember(t, owner, { 'bugs.view': false })
    expect((await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token })).status).toBe(403)
  })
})

describe('POST /api/projects/:slug/bugs/:number/split', () => {
  it('moves chosen occurrences into a new report: the oldest becomes the report, the rest its occurrences', async () => {
    const { owner, project, number, id } = await stacked(4)
    const list = (await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token: owner.token })).body.data.occurrences
    const byDevice = Object.fromEntries(list.map((o: any) => [o.device_info, o.id]))
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [byDevice.d3, byDevice.d1] } })
    expect(res.status).toBe(201)
    expect(res.body.data).toEqual({ id: expect.any(String), report_number: number + 1 })
    const [created] = rows(t, 'SELECT * FROM reports WHERE id = ?', res.body.data.id)
    expect(created).toMatchObject({ title, description: 'Game closes', category: 'crash', priority: 'high', device_info: 'd1', os_info: 'os1', platform: 'p1', game_version: 'v1', player_id: 's1', reporter_name: 'r1', occurrence_count: 2, created_by: owner.user.id })
    expect(created!.screenshot_key).toMatch(/\.png$/)
    expect(rows(t, 'SELECT device_info FROM report_occurrences WHERE report_id = ?', res.body.data.id)).toEqual([{ device_info: 'd3' }])
    expect(rows(t, 'SELECT device_info FROM report_occurrences WHERE report_id = ? ORDER BY device_info', id)).toEqual([{ device_info: 'd2' }, { device_info: 'd4' }])
    expect(rows(t, 'SELECT occurrence_count FROM reports WHERE id = ?', id)).toEqual([{ occurrence_count: 3 }])
    expect(rows(t, "SELECT new_value FROM activity WHERE report_id = ? AND action = 'split'", id)).toEqual([{ new_value: String(number + 1) }])
  })

  it('keeps later submissions with the same title stacking onto the original report', async () => {
    const { owner, project, number, id, key } = await stacked(2)
    const list = (await t.request('GET', `/api/projects/${project.slug}/bugs/${number}/occurrences`, { token: owner.token })).body.data.occurrences
    await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [list[0].id] } })
    const again = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title, description: 'again' } })
    expect(again.body.data.id).toBe(id)
  })

  it.each([
    ['an empty list', () => ({ occurrence_ids: [] }), 400],
    ['over 100 ids', () => ({ occurrence_ids: Array.from({ length: 101 }, (_, i) => `id${i}`) }), 400],
    ['an id of no occurrence of this report', () => ({ occurrence_ids: ['not-an-occurrence'] }), 400],
    ['no body field', () => ({}), 400],
  ])('answers %s with %i and changes nothing', async (_n, body, status) => {
    const { owner, project, number } = await stacked(2)
    const res = await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: body() })
    expect(res.status).toBe(status)
    expect(rows(t, 'SELECT count(*) AS n FROM reports')[0]!.n).toBe(1)
    expect(rows(t, 'SELECT count(*) AS n FROM report_occurrences')[0]!.n).toBe(2)
  })

  it('refuses occurrences of another report (400) and unknown reports (404)', async () => {
    const { owner, project, number, key } = await stacked(1)
    await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Other bug', description: 'x' } })
    const other = await t.request('POST', '/api/bugs/submit', { apiKey: key, body: { title: 'Other bug', description: 'x' } })
    const foreignOccurrence = rows(t, 'SELECT id FROM report_occurrences WHERE report_id = ?', other.body.data.id)[0]!.id
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: owner.token, body: { occurrence_ids: [foreignOccurrence] } })).status).toBe(400)
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/999/split`, { token: owner.token, body: { occurrence_ids: [foreignOccurrence] } })).status).toBe(404)
  })

  it('answers 403 to a member without bugs.edit and 404 to non-members', async () => {
    const { owner, project, number } = await stacked(1)
    const occurrence = rows(t, 'SELECT id FROM report_occurrences')[0]!.id
    const token = await addMember(t, owner, { 'bugs.edit': false })
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token, body: { occurrence_ids: [occurrence] } })).status).toBe(403)
    const stranger = await createUser(t)
    expect((await t.request('POST', `/api/projects/${project.slug}/bugs/${number}/split`, { token: stranger.token, body: { occurrence_ids: [occurrence] } })).status).toBe(404)
  })
})
