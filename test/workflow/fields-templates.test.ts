import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
  await createReportIn(t, project, { title: 'Falls through the floor' })
})
afterEach(() => t.close())

const defineField = (body: unknown, token = owner.token) => t.request('POST', `${base}/custom-fields`, { token, body })
const setValue = (field_id: string, value: unknown, n = 1) => t.request('POST', `${base}/bugs/${n}/custom-fields`, { token: owner.token, body: { field_id, value } })

describe('custom fields', () => {
  it('defines fields of every type; select types need options, names are unique per project', async () => {
    for (const type of ['text', 'number', 'date', 'checkbox', 'url']) expect((await defineField({ name: `f ${type}`, field_type: type })).status).toBe(201)
    expect((await defineField({ name: 'Platform', field_type: 'select' })).body.error).toBe('options: a select field needs at least one option')
    expect((await defineField({ name: 'Flag', field_type: 'checkbox', options: ['a'] })).status).toBe(400)
    expect((await defineField({ name: 'Build', field_type: 'select', options: ['a', 'a'] })).status).toBe(400)
    expect((await defineField({ name: 'Build', field_type: 'select', options: ['beta', 'release'] })).status).toBe(201)
    expect((await defineField({ name: 'build', field_type: 'text' })).status).toBe(409)
    expect((await defineField({ name: 'X', field_type: 'color' })).status).toBe(400)
    const list = (await t.request('GET', `${base}/custom-fields`, { token: owner.token })).body.data
    expect(list.map((f: { name: string }) => f.name)).toEqual(['f text', 'f number', 'f date', 'f checkbox', 'f url', 'Build'])
  })

  it('validates values against the type and options, naming the field; null clears; the read shows them', async () => {
    const sel = (await defineField({ name: 'Build', field_type: 'select', options: ['beta', 'release'] })).body.data.id
    const multi = (await defineField({ name: 'Areas', field_type: 'multiselect', options: ['menu', 'hud', 'map'] })).body.data.id
    const num = (await defineField({ name: 'FPS', field_type: 'number' })).body.data.id
    const url = (await defineField({ name: 'Clip', field_type: 'url' })).body.data.id
    const date = (await defineField({ name: 'Seen', field_type: 'date' })).body.data.id
    const check = (await defineField({ name: 'Repro', field_type: 'checkbox' })).body.data.id
    const bad: [string, unknown, string][] = [
      [sel, 'alpha', 'Build: expected one of beta, release'],
      [multi, ['menu', 'nope'], 'Areas: expected a list of menu, hud, map'],
      [num, '30', 'FPS: expected a number'],
      [url, 'javascript:alert(1)', 'Clip: expected an http or https URL'],
      [date, '2026-13-45', 'Seen: expected a date like 2026-12-31'],
      [check, 'yes', 'Repro: expected true or false'],
    ]
    for (const [id, value, error] of bad) {
      const res = await setValue(id, value)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(error)
    }
    expect((await setValue('unknown', 'x')).status).toBe(404)
    for (const [id, value] of [[sel, 'beta'], [multi, ['hud', 'menu', 'hud']], [num, 29.5], [url, 'https://clips.example/1'], [date, '2026-11-20'], [check, true]] as const) {
      expect((await setValue(id, value)).status).toBe(200)
    }
    const read = await t.request('GET', `${base}/bugs/1/custom-fields`, { token: owner.token })
    expect(Object.fromEntries(read.body.data.map((v: { name: string; value: unknown }) => [v.name, v.value]))).toEqual({
      Build: 'beta',
      Areas: ['hud', 'menu'],
      FPS: 29.5,
      Clip: 'https://clips.example/1',
      Seen: '2026-11-20',
      Repro: true,
    })
    await setValue(num, null)
    const after = await t.request('GET', `${base}/bugs/1/custom-fields`, { token: owner.token })
    expect(after.body.data.find((v: { name: string }) => v.name === 'FPS').value).toBeNull()
  })

  it('deleting a definition removes its values', async () => {
    const id = (await defineField({ name: 'Build', field_type: 'text' })).body.data.id
    await setValue(id, 'r1')
    expect((await t.request('DELETE', `${base}/custom-fields/${id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('GET', `${base}/bugs/1/custom-fields`, { token: owner.token })).body.data).toEqual([])
    expect((await sqlRows(t, 'SELECT count(*) AS n FROM custom_field_values'))[0]).toEqual({ n: 0 })
    expect((await t.request('DELETE', `${base}/custom-fields/${id}`, { token: owner.token })).status).toBe(404)
  })

  it('needs project.settings to define fields and bugs.edit to set values', async () => {
    const member = await addTeammate(t, owner)
    expect((await defineField({ name: 'Build', field_type: 'text' }, member.token)).status).toBe(403)
    const id = (await defineField({ name: 'Build', field_type: 'text' })).body.data.id
    expect((await t.request('POST', `${base}/bugs/1/custom-fields`, { token: member.token, body: { field_id: id, value: 'x' } })).status).toBe(200)
    const readOnly = await addTeammate(t, owner, { overrides: { 'bugs.edit': false } })
    expect((await t.request('POST', `${base}/bugs/1/custom-fields`, { token: readOnly.token, body: { field_id: id, value: 'y' } })).status).toBe(403)
  })
})

describe('report templates', () => {
  const body = { name: 'Crash report', description: 'For crashes', priority: 'high', category: 'crash', body_template: 'Steps:\n1.' }

  it('creates, lists, updates and deletes; 409 on a taken name; audited', async () => {
    const created = await t.request('POST', `${base}/templates`, { token: owner.token, body })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({ name: 'Crash report', priority: 'high', category: 'crash', body_template: 'Steps:\n1.' })
    expect((await t.request('POST', `${base}/templates`, { token: owner.token, body: { name: 'crash REPORT' } })).status).toBe(409)
    const id = created.body.data.id
    const patched = await t.request('PATCH', `${base}/templates/${id}`, { token: owner.token, body: { priority: null, name: 'Crash' } })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ name: 'Crash', priority: null, category: 'crash' })
    expect((await t.request('PATCH', `${base}/templates/${id}`, { token: owner.token, body: {} })).status).toBe(400)
    expect((await t.request('PATCH', `${base}/templates/${id}`, { token: owner.token, body: { priority: 'urgent' } })).status).toBe(400)
    const list = await t.request('GET', `${base}/templates`, { token: owner.token })
    expect(list.body.data.map((x: { name: string }) => x.name)).toEqual(['Crash'])
    expect((await t.request('DELETE', `${base}/templates/${id}`, { token: owner.token })).status).toBe(200)
    expect((await t.request('DELETE', `${base}/templates/${id}`, { token: owner.token })).status).toBe(404)
    const audit = await t.request('GET', `${base}/audit-log`, { token: owner.token })
    expect(JSON.stringify(audit.body.data)).toContain('template.deleted')
  })

  it('members read templates but need project.settings to change them', async () => {
    const member = await addTeammate(t, owner)
    expect((await t.request('POST', `${base}/templates`, { token: member.token, body })).status).toBe(403)
    await t.request('POST', `${base}/templates`, { token: owner.token, body })
    expect((await t.request('GET', `${base}/templates`, { token: member.token })).body.data).toHaveLength(1)
  })
})

describe('satisfaction', () => {
  it('keeps one rating per rater (a second replaces the first) and answers the average', async () => {
    const member = await addTeammate(t, owner)
    const first = await t.request('POST', `${base}/bugs/1/satisfaction`, { token: owner.token, body: { rating: 2, comment: 'meh' } })
    expect(first.status).toBe(201)
    const again = await t.request('POST', `${base}/bugs/1/satisfaction`, { token: owner.token, body: { rating: 4 } })
    expect(again.status).toBe(200)
    expect(again.body.data.is_new).toBe(false)
    await t.request('POST', `${base}/bugs/1/satisfaction`, { token: member.token, body: { rating: 5, comment: 'great' } })
    const read = await t.request('GET', `${base}/bugs/1/satisfaction`, { token: owner.token })
    expect(read.body.data).toMatchObject({ average: 4.5, count: 2 })
    expect(read.body.data.ratings.map((r: { rating: number; comment: string }) => [r.rating, r.comment])).toEqual([[4, ''], [5, 'great']])
    for (const rating of [0, 6, 3.5, '5']) expect((await t.request('POST', `${base}/bugs/1/satisfaction`, { token: owner.token, body: { rating } })).status).toBe(400)
    expect((await t.request('GET', `${base}/bugs/9/satisfaction`, { token: owner.token })).status).toBe(404)
  })
})
