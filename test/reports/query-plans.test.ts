import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listReports } from '../../src/modules/reports/reports.list'
import { errorTypeCounts, similarReports } from '../../src/modules/reports/reports.search'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { team } from './setup'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** The SQL of every statement `fn` prepares, with its EXPLAIN QUERY PLAN. */
function plansOf(fn: () => void): { sql: string; plan: string }[] {
  const seen: string[] = []
  const original = t.sqlite.prepare.bind(t.sqlite)
  const spy = vi.spyOn(t.sqlite, 'prepare').mockImplementation(((sql: string, ...rest: never[]) => {
    seen.push(sql)
    return original(sql, ...rest)
  }) as never)
  try {
    fn()
  } finally {
    spy.mockRestore()
  }
  return seen.map((sql) => ({
    sql,
    plan: (t.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | '),
  }))
}

describe('list queries read indexes, never the whole table, and sort without a temp b-tree', () => {
  it.each([
    ['unfiltered newest', {}, 'reports_live_idx'],
    ['status', { status: 'open' as const }, 'reports_live_status_idx'],
    ['status + priority', { status: 'open' as const, priority: 'high' as const }, 'reports_live_status_priority_idx'],
    ['priority', { priority: 'high' as const }, 'reports_live_priority_idx'],
    ['category', { category: 'crash' as const }, 'reports_live_category_idx'],
    ['error type', { errorType: 'TypeError' }, 'reports_live_error_type_idx'],
    ['assignee', { assignedTo: 'someone' }, 'reports_live_assignee_idx'],
    ['unassigned', { assignedTo: 'unassigned' }, 'reports_live_assignee_idx'],
    ['sort priority', { sort: 'priority' as const }, 'reports_live_priority_idx'],
    ['sort upvotes', { sort: 'upvotes' as const }, 'reports_live_upvotes_idx'],
    ['sort updated', { sort: 'updated' as const }, 'reports_live_updated_idx'],
    ['text search newest', { q: 'crash' }, 'VIRTUAL TABLE INDEX'],
  ])('%s', async (_name, filters, index) => {
    const { project } = await team(t)
    createReportIn(t, project)
    const plans = plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, ...filters }))
    const page = plans.find((p) => /limit \?/i.test(p.sql) && /"report_number"/.test(p.sql))!
    expect(page.plan).toContain(index)
    for (const p of plans.filter((p) => /from "reports"/.test(p.sql))) {
      expect(p.plan).not.toMatch(/SCAN reports\b(?! USING)/)
      expect(p.plan).not.toContain('TEMP B-TREE')
    }
  })

  it('error types read the error-type index only', async () => {
    const { project } = await team(t)
    const plans = plansOf(() => errorTypeCounts(t.deps.db, project.id))
    expect(plans.find((p) => /group by/i.test(p.sql))!.plan).toMatch(/USING (COVERING )?INDEX reports_live_error_type_idx \(project_id=\? AND error_type>\?\)/)
  })

  it('similar reports walk the FTS index, not the table', async () => {
    const { project } = await team(t)
    const plans = plansOf(() => similarReports(t.deps.db, project.id, 'boss fight crash'))
    expect(plans.map((p) => p.plan).join('\n')).toContain('VIRTUAL TABLE INDEX')
    for (const p of plans) expect(p.plan).not.toMatch(/SCAN reports\b(?! USING)/)
  })
})
