import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { sqlRows } from '../helpers/sql-rows'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** The maintained counts and the truth from the reports table, per project and status. */
async function countsAndTruth() {
  const kept = (await sqlRows(t, 'SELECT project_id, status, n FROM report_status_counts WHERE n != 0 ORDER BY 1, 2'))
  const truth = (await sqlRows(t, 'SELECT project_id, status, count(*) n FROM reports WHERE deleted_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2'))
  return { kept, truth }
}

describe('live report counts per status', () => {
  it('follow creates, status changes, bulk updates, soft deletes and project deletion', async () => {
    const owner = await createUser(t)
    const a = await createProject(t, owner)
    const b = await createProject(t, owner)
    for (let i = 0; i < 6; i++) await createReportIn(t, a)
    await createReportIn(t, b)
    const api = (method: string, path: string, body?: unknown) => t.request(method, `/api/projects/${a.slug}${path}`, { token: owner.token, body })
    expect((await api('PATCH', '/bugs/1', { status: 'in_progress' })).status).toBe(200)
    expect((await api('PATCH', '/bugs/2', { status: 'resolved' })).status).toBe(200)
    expect((await api('PATCH', '/bugs/bulk', { bug_numbers: [3, 4], status: 'closed' })).status).toBe(200)
    expect((await api('DELETE', '/bugs/5')).status).toBe(200)
    expect((await api('DELETE', '/bugs/bulk', { bug_numbers: [4] })).status).toBe(200)
    const { kept, truth } = await countsAndTruth()
    expect(kept).toEqual(truth)

    const list = (await t.request('GET', '/api/projects', { token: owner.token })).body.data
    expect(list.find((p: { id: string }) => p.id === a.id).bug_counts).toEqual({ total: 4, open: 1, in_progress: 1, resolved: 1, closed: 1, wont_fix: 0 })

    expect((await t.request('DELETE', `/api/projects/${a.slug}`, { token: owner.token })).status).toBe(200)
    expect((await countsAndTruth()).kept).toEqual((await countsAndTruth()).truth)
  })
})
