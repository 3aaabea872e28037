import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { EXPORT_CHUNK } from '../../src/modules/report-admin/report-export'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { deny, manyReports, team } from './setup'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

const lines = (csv: string) => csv.split('\r\n').filter((l) => l !== '')

describe('GET /projects/:slug/bugs/export', () => {
  it('streams a CSV attachment with a header row, RFC 4180 quoting and formula neutralising', async () => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project, { title: 'Crash, on "load"', description: 'line1\nline2', priority: 'high' })
    await createReportIn(t, project, { title: '=HYPERLINK("http://evil.example","click")', description: '@SUM(A1)' })
    await createReportIn(t, project, { title: 'Gone', description: 'x' })
    await t.request('DELETE', `${base}/bugs/3`, { token: owner.token })
    const res = await t.request('GET', `${base}/bugs/export`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/)
    const csv = res.body as string
    expect(csv.startsWith('report_number,title,description,status,priority,category,platform,game_version,error_type,source,assigned_to,upvotes,occurrences,occurrence_count,player_count,first_seen,last_seen,first_version,last_version,reporter_name,created_at,updated_at\r\n')).toBe(true)
    expect(csv).toContain('1,"Crash, on ""load""","line1\nline2",open,high,')
    expect(csv).toContain(`2,"'=HYPERLINK(""http://evil.example"",""click"")",'@SUM(A1),open,medium,`)
    expect(csv).not.toContain('Gone')
  })

  it.each([
    ['status', 'status=resolved', [2]],
    ['priority', 'priority=high', [1, 2]],
    ['both', 'status=resolved&priority=high', [2]],
    ['none match', 'status=closed', []],
  ])('filters by %s', async (_name, qs, expected) => {
    const { owner, project, base } = await team(t)
    await createReportIn(t, project, { priority: 'high' })
    await createReportIn(t, project, { priority: 'high' })
    await createReportIn(t, project, { priority: 'low' })
    await t.request('PATCH', `${base}/bugs/2`, { token: owner.token, body: { status: 'resolved' } })
    const res = await t.request('GET', `${base}/bugs/export?${qs}`, { token: owner.token })
    expect(res.status).toBe(200)
    expect(
      lines(res.body)
        .slice(1)
        .map((l) => Number(l.split(',')[0])),
    ).toEqual(expected)
  })

  it('exports every row across chunk boundaries, oldest first', async () => {
    const { owner, project, base } = await team(t)
    const n = EXPORT_CHUNK * 2 + 3
    await manyReports(t, project, n)
    const rows = lines((await t.request('GET', `${base}/bugs/export`, { token: owner.token })).body).slice(1)
    expect(rows).toHaveLength(n)
    expect(rows.map((l) => Number(l.split(',')[0]))).toEqual(Array.from({ length: n }, (_, i) => i + 1))
  })

  it('400 for a bad filter, 404 for outsiders, 403 without bugs.view', async () => {
    const { mate, outsider, project, base } = await team(t)
    expect((await t.request('GET', `${base}/bugs/export?status=done`, { token: mate.token })).status).toBe(400)
    expect((await t.request('GET', `${base}/bugs/export`, { token: outsider.token })).status).toBe(404)
    await deny(t, mate, project, 'bugs.view')
    expect((await t.request('GET', `${base}/bugs/export`, { token: mate.token })).status).toBe(403)
  })
})
