import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { jobs } from '../../src/jobs/jobs.table'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { addTeammate } from '../projects/team-helpers'

let t: TestApp
let owner: TestUser
let project: TestProject
let base: string
beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  base = `/api/projects/${project.slug}`
})
afterEach(() => t.close())

const importJson = (bugs: unknown, token = owner.token) => t.request('POST', `${base}/import`, { token, body: { bugs } })
const importCsv = (csv: string) => t.request('POST', `${base}/import`, { token: owner.token, body: csv, headers: { 'content-type': 'text/csv' } })
const list = async () => (await t.request('GET', `${base}/bugs?sort=newest`, { token: owner.token })).body.data.bugs.map((b: { report_number: number; title: string; status: string; priority: string; category: string }) => [b.report_number, b.title, b.status, b.priority, b.category]).reverse()

describe('import', () => {
  it('imports in one transaction, numbers in order, reports bad items and is idempotent on external_id', async () => {
    const bugs = [
      { title: 'Crash on boot', description: 'x', status: 'resolved', priority: 'high', category: 'crash', external_id: 'GH-1', external_url: 'https://github.com/studio/game/issues/1' },
      { title: '', external_id: 'GH-2' },
      { title: 'Typo', priority: 'urgent' },
      { title: 'Menu lag', external_id: 7 },
      { title: 'Menu lag again', external_id: 7 },
    ]
    const res = await importJson(bugs)
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ created: 2, skipped: 1, report_numbers: [1, 2] })
    expect(res.body.data.errors.map((e: { index: number }) => e.index)).toEqual([1, 2])
    expect(res.body.data.errors[1].error).toContain('priority')
    expect(await list()).toEqual([[1, 'Crash on boot', 'resolved', 'high', 'crash'], [2, 'Menu lag', 'open', 'medium', 'other']])
    const again = await importJson(bugs)
    expect(again.body.data).toMatchObject({ created: 0, skipped: 3 })
    expect(await list()).toHaveLength(2)
    const imports = (await t.request('GET', `${base}/imports`, { token: owner.token })).body.data
    expect(imports.map((i: { report_number: number; external_id: string; external_url: string | null }) => [i.report_number, i.external_id, i.external_url])).toEqual([
      [2, '7', null],
      [1, 'GH-1', 'https://github.com/studio/game/issues/1'],
    ])
  })

  it('sends no webhook or mail per imported report and logs one activity entry', async () => {
    await t.request('POST', `${base}/webhooks/generic`, { token: owner.token, body: { url: 'https://hooks.example.com/x' } })
    const before = (await t.deps.db.read((q) => q.select().from(jobs))).length
    await importJson(Array.from({ length: 30 }, (_, i) => ({ title: `Imported ${i}` })))
    expect((await t.deps.db.read((q) => q.select().from(jobs))).length).toBe(before)
    const activity = (await t.request('GET', `${base}/activity`, { token: owner.token })).body.data.filter((a: { action: string }) => a.action === 'imported')
    expect(activity).toHaveLength(1)
  })

  it('refuses more than 1,000 items, empty lists and non-members; needs bugs.create', async () => {
    expect((await importJson(Array.from({ length: 1001 }, () => ({ title: 'x' })))).status).toBe(400)
    expect((await importJson([])).status).toBe(400)
    expect((await t.request('POST', `${base}/import`, { token: owner.token, body: { items: [] } })).status).toBe(400)
    const mate = await addTeammate(t, owner, { overrides: { 'bugs.create': false } })
    expect((await importJson([{ title: 'x' }], mate.token)).status).toBe(403)
    expect(await list()).toEqual([])
  })

  it('reads our own CSV export back (quotes, commas, line breaks, formula guards)', async () => {
    await t.request('POST', `${base}/bugs`, { token: owner.token, body: { title: '=HYPERLINK("x")', description: 'line one\nline "two", done', priority: 'low', category: 'audio' } })
    const csv = (await t.request('GET', `${base}/bugs/export`, { token: owner.token })).body as string
    const other = await createProject(t, owner)
    const res = await t.request('POST', `/api/projects/${other.slug}/import`, { token: owner.token, body: csv, headers: { 'content-type': 'text/csv' } })
    expect(res.body.data).toMatchObject({ created: 1, errors: [] })
    const read = (await t.request('GET', `/api/projects/${other.slug}/bugs/1`, { token: owner.token })).body.data.bug
    expect(read).toMatchObject({ title: '=HYPERLINK("x")', description: 'line one\nline "two", done', priority: 'low', category: 'audio' })
  })

  it('maps GitHub and Jira CSV exports (status and priority names, keys as external ids)', async () => {
    const github = ['Title,URL,State,Labels,Body,Number', '"Crash in shop",https://github.com/s/g/issues/4,closed,"bug, crash, P1",It crashes,4', 'Fog too dark,https://github.com/s/g/issues/5,open,visual,,5'].join('\n')
    expect((await importCsv(github)).body.data).toMatchObject({ created: 2, errors: [] })
    const jira = [
      'Summary,Issue key,Issue id,Issue Type,Status,Priority,Description,Affects Version/s,Labels,Labels',
      'Save corrupt,GAME-12,10012,Bug,In Progress,Highest,Save file gets corrupted,1.2.0,network,',
      "Old thing,GAME-13,10013,Bug,Won't Do,Minor,,,,",
    ].join('\r\n')
    expect((await importCsv(jira)).body.data).toMatchObject({ created: 2, errors: [] })
    expect(await list()).toEqual([
      [1, 'Crash in shop', 'closed', 'high', 'crash'],
      [2, 'Fog too dark', 'open', 'medium', 'visual'],
      [3, 'Save corrupt', 'in_progress', 'critical', 'network'],
      [4, 'Old thing', 'wont_fix', 'low', 'other'],
    ])
    expect((await t.request('GET', `${base}/bugs/3`, { token: owner.token })).body.data.bug.game_version).toBe('1.2.0')
    expect((await importCsv(jira)).body.data).toMatchObject({ created: 0, skipped: 2 })
    expect((await importCsv('name,color\nx,y')).status).toBe(400)
  })
})
