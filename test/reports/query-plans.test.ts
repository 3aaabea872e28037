import { Database } from 'bun:sqlite'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { listReports } from '../../src/modules/reports/reports.list'
import { errorTypeCounts, similarTo } from '../../src/modules/reports/reports.search'
import { createReportIn } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { team } from './setup'
import { onSqlite } from '../helpers/pg-engine'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

/** The SQL of every statement `fn` prepares (on the writer or the read-only connection), with its EXPLAIN QUERY PLAN. */
async function plansOf(fn: () => unknown): Promise<{ sql: string; plan: string }[]> {
  const seen: string[] = []
  const original = Database.prototype.prepare
  const spy = vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (this: Database, sql: string, ...rest: never[]) {
    seen.push(sql)
    return original.call(this, sql, ...rest)
  } as never)
  try {
    await fn()
  } finally {
    spy.mockRestore()
  }
  return seen.map((sql) => ({
    sql,
    plan: (t.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' | '),
  }))
}

describe.skipIf(!onSqlite)('list queries read indexes, never the whole table, and sort without a temp b-tree (SQLite: query plans)', () => {
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
    await createReportIn(t, project)
    const plans = await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, ...filters }))
    const page = plans.find((p) => /limit \?/i.test(p.sql) && /"report_number"/.test(p.sql))!
    expect(page.plan).toContain(index)
    for (const p of plans.filter((p) => /from "reports"/.test(p.sql))) {
      expect(p.plan).not.toMatch(/SCAN reports\b(?! USING)/)
      expect(p.plan).not.toContain('TEMP B-TREE')
    }
  })

  it('error types read the error-type index only', async () => {
    const { project } = await team(t)
    const plans = await plansOf(() => errorTypeCounts(t.deps.db, project.id))
    expect(plans.find((p) => /group by/i.test(p.sql))!.plan).toMatch(/USING (COVERING )?INDEX reports_live_error_type_idx \(project_id=\? AND error_type>\?\)/)
  })

  it('similar reports walk the FTS index, not the table', async () => {
    const { project } = await team(t)
    const plans = await plansOf(() => similarTo(t.deps.db, project.id, 'boss fight crash'))
    expect(plans.map((p) => p.plan).join('\n')).toContain('VIRTUAL TABLE INDEX')
    for (const p of plans) expect(p.plan).not.toMatch(/SCAN reports\b(?! USING)/)
  })
})

describe.skipIf(!onSqlite)('list filters of issue 24 read keys, newest first, never the whole table (SQLite: query plans)', () => {
  const page = (plans: { sql: string; plan: string }[]) => plans.find((p) => /offset \?/i.test(p.sql) && /"report_number"/.test(p.sql))!

  it.each([
    ['version: drives by the facet key', 'version:1.3.0', 'SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?)'],
    ['player: drives by the facet key', 'player:7656', 'SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?)'],
    ['has:screenshot drives by the facet key', 'has:screenshot', 'SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?)'],
    ['fingerprint: reads the live fingerprint index', 'fingerprint:0123456789abcdef0123456789abcdef', 'reports_live_fingerprint_idx'],
    ['is:regression reads the regressed index', 'is:regression', 'reports_live_regressed_idx'],
    ['is:unassigned reads the assignee index', 'is:unassigned', 'reports_live_assignee_idx'],
    ['error: reads the error-type index', 'error:TypeError', 'reports_live_error_type_idx'],
  ])('%s', async (_name, q, index) => {
    const { project } = await team(t)
    await createReportIn(t, project, { title: 'TypeError in shop', gameVersion: '1.3.0' })
    const plans = await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, q }))
    expect(page(plans).plan).toContain(index)
    // The page and its bounded count (the error-types listing prepared beside the skip scan sorts its own counts).
    for (const p of plans.filter((p) => /offset \?|"matching"/i.test(p.sql))) {
      expect(p.plan).not.toMatch(/SCAN (reports|f)\b(?! USING)/)
      expect(p.plan).not.toContain('TEMP B-TREE')
    }
  })

  it('a second facet is a key lookup per row, and a facet under another sort keeps its key', async () => {
    const { project } = await team(t)
    await createReportIn(t, project, { gameVersion: '1.3.0', platform: 'Linux' })
    const two = page(await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, q: 'version:1.3.0 platform:Linux' })))
    // The facet walk (a co-routine) checks the second facet on its key before a report is read.
    expect(two.plan).toBe(
      'CO-ROUTINE k | SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?) | SEARCH report_facets EXISTS USING PRIMARY KEY (project_id=? AND kind=? AND value=? AND report_seq=?) | SCAN k | SEARCH reports USING INTEGER PRIMARY KEY (rowid=?)',
    )
    const sorted = page(await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, q: 'version:1.3.0', sort: 'occurrences' })))
    expect(sorted.plan).toContain('SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?)')
  })

  it('words with a facet: the rarer drives, and facet probes run on the driving key before a report is read', async () => {
    const { project } = await team(t)
    for (let i = 0; i < 3; i++) await createReportIn(t, project, { title: `Boss crash ${i}`, gameVersion: '1.3.0', platform: 'Linux' })
    await createReportIn(t, project, { title: 'Door stuck', gameVersion: '1.2.0', platform: 'Linux' })
    const listed = { ...project, liveReportCount: 4 }
    // "crash" matches 3 reports, version 1.2.0 holds 1: the facet drives and probes the set of matches.
    const rare = page(await plansOf(() => listReports(t.deps.db, listed, { page: 1, q: 'crash version:1.2.0 platform:linux' })))
    expect(rare.plan).toMatch(/^CO-ROUTINE k \| SEARCH f USING PRIMARY KEY \(project_id=\? AND kind=\? AND value=\?\) \| LIST SUBQUERY \d+ \| SCAN reports_fts .*\| SEARCH report_facets EXISTS USING PRIMARY KEY .*\| SCAN k \| SEARCH reports USING INTEGER PRIMARY KEY/)
    // "door" matches 1 report, version 1.3.0 holds 3: the words drive and probe the facet.
    const common = page(await plansOf(() => listReports(t.deps.db, listed, { page: 1, q: 'door version:1.3.0' })))
    expect(common.plan).toMatch(/^SCAN reports_fts VIRTUAL TABLE INDEX \S+ \| .*SEARCH report_facets (EXISTS )?USING PRIMARY KEY .*\| SEARCH reports USING INTEGER PRIMARY KEY/)
  })

  it('a facet-only list is counted from the facet key without reading reports', async () => {
    const { project } = await team(t)
    await createReportIn(t, project, { gameVersion: '1.3.0', platform: 'Linux' })
    const plans = await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, q: 'version:1.3.0 platform:linux' }))
    const count = plans.find((p) => /"matching"/.test(p.sql))!
    expect(count.plan).toContain('SEARCH f USING PRIMARY KEY (project_id=? AND kind=? AND value=?)')
    expect(count.plan).not.toContain('reports')
  })

  it('error: finds the project\'s error types by a skip scan of the error-type index', async () => {
    const { project } = await team(t)
    await createReportIn(t, project, { title: 'TypeError in shop' })
    const plans = await plansOf(() => listReports(t.deps.db, { ...project, liveReportCount: 1 }, { page: 1, q: 'error:TypeError' }))
    const distinct = plans.find((p) => /WITH RECURSIVE/.test(p.sql))!
    expect(distinct.plan).toMatch(/SEARCH reports USING (COVERING )?INDEX reports_live_error_type_idx \(project_id=\? AND error_type>\?\)/)
    expect(distinct.plan).not.toMatch(/SCAN reports\b/)
  })
})
