import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DomainEvent } from '../../src/events/domain-events'
import { COUNT_CAP } from '../../src/modules/reports/reports.list'
import { createReportIn, createReportsIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { deny, manyWithFacet, team } from './setup'
import { sqlRows, sqlRun } from '../helpers/sql-rows'

let t: TestApp
let events: DomainEvent[]
beforeEach(() => {
  t = createTestApp()
  events = []
  t.deps.events.subscribe((_tx, e) => void events.push(e))
})
afterEach(() => t.close())

type Bug = { report_number: number; status: string }

/**
 * 130 reports from game version 1.3.0 (#1–#130, more than the 100 an id list may name and more than a
 * page), 5 from 1.2.0 (#131–#135), and one 1.3.0 report in another project of the same owner.
 */
async function seeded() {
  const ctx = await team(t)
  await createReportsIn(t, ctx.project, [
    ...Array.from({ length: 130 }, (_, i) => ({ title: `Shader crash ${i}`, gameVersion: '1.3.0', platform: 'Windows' })),
    ...Array.from({ length: 5 }, (_, i) => ({ title: `Old crash ${i}`, gameVersion: '1.2.0', platform: 'Linux' })),
  ])
  const other = await team(t)
  await createReportIn(t, other.project, { gameVersion: '1.3.0' })
  events.length = 0
  const list = async (query = '') => (await t.request('GET', `${ctx.base}/bugs?${query}`, { token: ctx.owner.token })).body.data as { bugs: Bug[]; total: number }
  const audit = async () => (await sqlRows(t, "SELECT action, target, details FROM audit_log WHERE action LIKE 'reports.%' ORDER BY seq")) as { action: string; target: string; details: string }[]
  return { ...ctx, list, audit, other }
}

describe('bulk actions by filter', () => {
  it('PATCH takes every report the filter lists, past the page and the 100-id limit, in one audited action', async () => {
    const { owner, base, list, audit } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { filter: { q: 'version:1.3.0', status: 'open' }, status: 'in_progress', priority: 'high' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ok: true, data: { updated: 130 } })
    expect((await list('status=in_progress')).total).toBe(130)
    expect((await list('status=open')).bugs.map((b) => b.report_number)).toEqual([135, 134, 133, 132, 131])
    expect(events.filter((e) => e.type === 'bug_updated')).toHaveLength(130)
    const [entry] = await audit()
    expect(entry).toMatchObject({ action: 'reports.bulk_updated', target: '130 reports' })
    expect(JSON.parse(entry!.details)).toEqual({ filter: { q: 'version:1.3.0', status: 'open' }, count: 130, changes: ['status', 'priority'] })
  })

  it('the filter is the list\'s: parameters and q filters select the same reports as the list shows', async () => {
    const { owner, base, list } = await seeded()
    const listed = await list('platform=Linux&q=old')
    expect(listed.total).toBe(5)
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { filter: { platform: 'Linux', q: 'old' }, category: 'visual' } })
    expect(res.body.data).toEqual({ updated: 5 })
    expect((await list('category=visual')).bugs.map((b) => b.report_number)).toEqual(listed.bugs.map((b) => b.report_number))
  })

  it('DELETE deletes every matching report, keeps the live count right and audits it once', async () => {
    const { owner, base, list, audit } = await seeded()
    const res = await t.request('DELETE', `${base}/bugs/bulk`, { token: owner.token, body: { filter: { version: '1.3.0' } } })
    expect(res.body).toEqual({ ok: true, data: { deleted: 130 } })
    const left = await list()
    expect(left.total).toBe(5)
    expect(left.bugs.map((b) => b.report_number)).toEqual([135, 134, 133, 132, 131])
    expect(await audit()).toMatchObject([{ action: 'reports.bulk_deleted', target: '130 reports' }])
    // A deleted report leaves the facets too: a facet-only list (counted from the facet key) finds none.
    expect(await list('version=1.3.0')).toMatchObject({ total: 0, bugs: [] })
    expect((await list('platform=Linux')).total).toBe(5)
    // The other project's 1.3.0 report is untouched.
    expect((await list()).total).toBe(5)
  })

  it('refuses a filter that matches more than 10,000 reports, and changes nothing', async () => {
    const { owner, base, project, list, audit } = await seeded()
    await manyWithFacet(t, project, COUNT_CAP + 1)
    for (const [method, body] of [
      ['PATCH', { filter: { version: '1.0' }, status: 'closed' }],
      ['DELETE', { filter: { version: '1.0' } }],
    ] as const) {
      const res = await t.request(method, `${base}/bugs/bulk`, { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(res.body.error).toContain('matches more than 10,000 reports')
    }
    const merge = await t.request('POST', `${base}/bugs/1/merge`, { token: owner.token, body: { filter: { q: 'version:1.0' } } })
    expect(merge.status).toBe(400)
    expect(merge.body.error).toContain('matches more than 10,000 reports')
    expect(await list('status=closed')).toMatchObject({ total: 0 })
    expect((await list()).total).toBe(135 + COUNT_CAP + 1)
    expect(await audit()).toEqual([])
    // Exactly 10,000 is taken.
    await sqlRun(t, "UPDATE reports SET status = 'in_progress' WHERE project_id = ? AND report_number = 10001", project.id)
    const ok = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body: { filter: { version: '1.0', status: 'open' }, status: 'closed' } })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.data.updated).toBe(COUNT_CAP)
  }, 120_000)

  it.each([
    [{ bug_numbers: [1], filter: { version: '1.3.0' }, status: 'closed' }, 'send one of bug_ids, bug_numbers or filter'],
    [{ status: 'closed' }, 'or filter is required'],
    [{ filter: { q: 'is:nothing' }, status: 'closed' }, 'is:nothing is not a filter'],
    [{ filter: { status: 'sideways' }, status: 'closed' }, 'status'],
    [{ filter: { version: '1.3.0' } }, 'no valid fields to update'],
  ])('400 for %j, and nothing changes', async (body, message) => {
    const { owner, base, list } = await seeded()
    const res = await t.request('PATCH', `${base}/bugs/bulk`, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.ok).toBe(false)
    expect(JSON.stringify(res.body.error)).toContain(message)
    expect((await list('status=closed')).total).toBe(0)
  })

  it('needs the same permissions as the id form', async () => {
    const { mate, project, base, list } = await seeded()
    await deny(t, mate, project, 'bugs.delete')
    const res = await t.request('DELETE', `${base}/bugs/bulk`, { token: mate.token, body: { filter: {} } })
    expect(res.status).toBe(403)
    expect((await list()).total).toBe(135)
  })
})

describe('POST /bugs/{number}/merge by filter', () => {
  it('folds every matching report but the survivor into it, audited with the filter', async () => {
    const { owner, base, list, audit } = await seeded()
    const res = await t.request('POST', `${base}/bugs/131/merge`, { token: owner.token, body: { filter: { platform: 'Linux' } } })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ report_number: 131, merged: [132, 133, 134, 135], occurrence_count: 5 })
    expect(await list('platform=linux')).toMatchObject({ total: 1, bugs: [{ report_number: 131 }] })
    const gone = await t.request('GET', `${base}/bugs/133`, { token: owner.token })
    expect(gone.status).toBe(308)
    const [entry] = await audit()
    expect(entry).toMatchObject({ action: 'reports.merged', target: '#131' })
    expect(JSON.parse(entry!.details)).toEqual({ merged: [132, 133, 134, 135], filter: { platform: 'Linux' }, count: 4 })
  })

  it('merges more than 100 reports in one call: occurrences, labels and votes carry over once', async () => {
    const { owner, base, list, project } = await seeded()
    // #2 and #3 share a label and a voter; #3 has a second voter and one upvote counted before voters were kept.
    const seqOf = async (n: number) => ((await sqlRows(t, 'SELECT seq, id FROM reports WHERE project_id = ? AND report_number = ?', project.id, n))[0] as { seq: number; id: string })
    await sqlRun(t, "INSERT INTO labels (id, project_id, name, color, created_at) VALUES ('lab', ?, 'launch', '#123456', 0)", project.id)
    for (const n of [2, 3]) await sqlRun(t, "INSERT INTO report_labels (report_id, report_seq, label_id) VALUES (?, ?, 'lab')", (await seqOf(n)).id, (await seqOf(n)).seq)
    for (const [n, voter] of [[2, 'v1'], [3, 'v1'], [3, 'v2']] as const) await sqlRun(t, 'INSERT INTO report_votes (report_seq, voter_key, created_at) VALUES (?, ?, 0)', (await seqOf(n)).seq, voter)
    await sqlRun(t, 'UPDATE reports SET upvotes = ? WHERE seq = ?', 1, (await seqOf(2)).seq)
    await sqlRun(t, 'UPDATE reports SET upvotes = ? WHERE seq = ?', 3, (await seqOf(3)).seq)
    const res = await t.request('POST', `${base}/bugs/1/merge`, { token: owner.token, body: { filter: { q: 'shader' } } })
    expect(res.body.data.merged).toHaveLength(129)
    expect(res.body.data).toMatchObject({ occurrence_count: 130, upvotes: 3 })
    const survivor = (await t.request('GET', `${base}/bugs/1`, { token: owner.token })).body.data.bug
    expect(survivor.labels).toEqual([{ id: 'lab', name: 'launch', color: '#123456' }])
    expect((await list('q=shader')).bugs.map((b) => b.report_number)).toEqual([1])
    expect((await list()).total).toBe(6)
  })

  it.each([
    [{ filter: { q: 'nothing-matches-this' } }, 'no report but #1 matches it'],
    [{ filter: { version: '1.3.0' }, numbers: [2] }, 'send numbers or filter, not both'],
    [{}, 'numbers (1 to 100 report numbers) or filter is required'],
  ])('400 for %j', async (body, message) => {
    const { owner, base, list } = await seeded()
    const res = await t.request('POST', `${base}/bugs/1/merge`, { token: owner.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error).toContain(message)
    expect((await list()).total).toBe(135)
  })
})
