import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pgPool } from '../../src/db/pg/client'
import { labels, reportLabels } from '../../src/modules/labels/labels.table'
import { createProject, createReportIn } from '../helpers/fixtures'
import { onSqlite } from '../helpers/pg-engine'
import { pgRows, sqlRows, sqlRun } from '../helpers/sql-rows'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { manyReports, team } from './setup'

let t: TestApp
beforeEach(() => {
  t = createTestApp()
})
afterEach(() => t.close())

describe.skipIf(onSqlite)('the list on PostgreSQL at scale (PostgreSQL: planner estimates)', () => {
  it('estimates a facet key from its kind and value together, so a key on 30% of rows is not planned as 9%', async () => {
    const { project } = await team(t)
    // 10,000 keys: has:screenshot ('' of kind 4) on 3,000, platforms on 4,000, thirty versions on 3,000.
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT ?, 4, '', g FROM generate_series(1, 3000) g", project.id)
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT ?, 2, CASE WHEN g % 4 = 0 THEN 'Windows' ELSE 'Linux' END, g FROM generate_series(1, 4000) g", project.id)
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT ?, 1, '1.' || (g % 30) || '.0', g FROM generate_series(1, 3000) g", project.id)
    await sqlRun(t, 'ANALYZE report_facets')
    const estimate = async (kind: number, value: string) => {
      const [row] = await sqlRows<{ 'QUERY PLAN': string | [{ Plan: { 'Plan Rows': number } }] }>(
        t,
        'EXPLAIN (FORMAT JSON) SELECT 1 FROM report_facets WHERE project_id = ? AND kind = ? AND value = ?',
        project.id,
        kind,
        value,
      )
      const plan = row!['QUERY PLAN']
      return (typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: { 'Plan Rows': number } }]) : plan)[0].Plan['Plan Rows']
    }
    // Kind and value as independent columns would give 10,000 × 0.3 × 0.3 = 900 and 10,000 × 0.4 × 0.3 = 1,200.
    expect(await estimate(4, '')).toBeGreaterThan(2_000)
    expect(await estimate(2, 'Linux')).toBeGreaterThan(2_000)
  })
})

/** Plan nodes of an EXPLAIN (FORMAT JSON) answer, depth first. */
type PlanNode = { 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; 'Actual Loops': number; Plans?: PlanNode[] }
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)]

/** The list's answer to `GET path`, and the statements it sent, caught on the pool (Drizzle sends each through `unsafe`). */
async function listCatching(path: string, token: string) {
  const pool = pgPool(t.deps.db)!
  const unsafe = pool.unsafe.bind(pool)
  const sent: { query: string; params: unknown[] }[] = []
  pool.unsafe = ((query: string, params?: unknown[]) => (sent.push({ query, params: params ?? [] }), unsafe(query, params))) as typeof pool.unsafe
  const res = await t.request<{ data: { bugs: { report_number: number }[]; total: number } }>('GET', path, { token }).finally(() => {
    pool.unsafe = unsafe
  })
  return { res, sent }
}

/** The plan nodes of a statement run again under EXPLAIN ANALYZE, with `setting` (e.g. `enable_nestloop = off`) for it alone. */
async function planNodes({ query, params }: { query: string; params: unknown[] }, setting: string): Promise<PlanNode[]> {
  const [row] = (await pgPool(t.deps.db)!.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL ${setting}`)
    return tx.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${query}`, params)
  })) as Record<string, unknown>[]
  const plan = Object.values(row!)[0] as string | [{ Plan: PlanNode }]
  return nodesOf((typeof plan === 'string' ? (JSON.parse(plan) as [{ Plan: PlanNode }]) : plan)[0].Plan)
}

describe.skipIf(onSqlite)('a rare word with a common facet on PostgreSQL (PostgreSQL: planner estimates)', () => {
  // A player's key, which the facet sets do not hold (a version or platform meets the words in their index).
  it("probes the facet for each match of the word, never reading the facet's whole key", async () => {
    const { project, owner, base } = await team(t)
    // 5,000 reports of one player, and three with a word found nowhere else (two of that player).
    await manyReports(t, project, 5_000, 1_001)
    const zeppelins = [await createReportIn(t, project, { title: 'Zeppelin hangar door stuck' }), await createReportIn(t, project, { title: 'Zeppelin clips the tower' }), await createReportIn(t, project, { title: 'Zeppelin never lands' })]
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT project_id, 3, 'player-0', seq FROM reports WHERE project_id = ? AND report_number > 1000", project.id)
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES (?, 3, 'player-0', ?), (?, 3, 'player-0', ?), (?, 3, 'player-9', ?) ON CONFLICT DO NOTHING", project.id, zeppelins[0]!.seq, project.id, zeppelins[1]!.seq, project.id, zeppelins[2]!.seq)
    await sqlRun(t, 'ANALYZE reports')
    await sqlRun(t, 'ANALYZE report_facets')

    const { res, sent } = await listCatching(`${base}/bugs?q=${encodeURIComponent('zeppelin player:player-0')}`, owner.token)
    expect(res.body.data.bugs.map((b) => b.report_number)).toEqual([2, 1])
    expect(res.body.data.total).toBe(2)

    // Each statement that tests the words and the facet, run again under EXPLAIN ANALYZE: the facet's
    // index rows it read (a probe per match reads at most one each; a join reads all 5,000). Nested
    // loops are off for it, as the planner's own choice at 1M reports: there it guesses a word its
    // statistics do not list at 0.5% of the rows (5,000 rather than 86) and joins the whole key.
    const tested = sent.filter((s) => s.query.includes('report_facets') && s.query.includes('@@'))
    expect(tested.length).toBeGreaterThan(0)
    for (const statement of tested) {
      const facetRows = (await planNodes(statement, 'enable_nestloop = off'))
        .filter((n) => n['Relation Name'] === 'report_facets')
        .reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0)
      expect(facetRows).toBeLessThanOrEqual(3)
    }
  })
})

describe.skipIf(onSqlite)('several facets on PostgreSQL (PostgreSQL: facet sets)', () => {
  it('intersects version, platform and screenshot in the facet sets\' index, reading no facet key', async () => {
    const { project, owner, base } = await team(t)
    // 3,000 reports: a version on every third, Linux on every second, a screenshot on every fifth.
    await manyReports(t, project, 3_000, 1)
    const facet = (kind: number, value: string, every: number) =>
      sqlRun(t, `INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT project_id, ${kind}, '${value}', seq FROM reports WHERE project_id = ? AND report_number % ${every} = 0`, project.id)
    await facet(1, '1.3.0', 3)
    await facet(2, 'Linux', 2)
    await facet(4, '', 5)
    await sqlRun(t, 'ANALYZE report_facet_sets')

    const { res, sent } = await listCatching(`${base}/bugs?q=${encodeURIComponent('version:1.3.0 platform:linux has:screenshot')}`, owner.token)
    // Every 30th report: 100 of them, newest first.
    expect(res.body.data.total).toBe(100)
    expect(res.body.data.bugs.slice(0, 3).map((b) => b.report_number)).toEqual([3000, 2970, 2940])

    // The statements that find the matches, run again under EXPLAIN ANALYZE with sequential scans off
    // (the planner's choice for these sets at 1M reports): the GIN index answers, and no row of
    // report_facets is read (the key walk read 1,000 version keys and probed the others for each).
    const walks = sent.filter((s) => s.query.includes('report_facet_sets'))
    expect(walks.length).toBeGreaterThan(0)
    for (const statement of walks) {
      const nodes = await planNodes(statement, 'enable_seqscan = off')
      expect(nodes.some((n) => n['Index Name'] === 'report_facet_sets_ids_doc')).toBe(true)
      expect(nodes.filter((n) => n['Relation Name'] === 'report_facets' || n['Index Name']?.startsWith('report_facets')).length).toBe(0)
    }
  })
})

describe.skipIf(onSqlite)('a common word within a common facet on PostgreSQL (PostgreSQL: facet sets)', () => {
  it("intersects the word and the version in the facet sets' index, testing no report's document", async () => {
    const { project, owner, base } = await team(t)
    // 3,000 reports: `crash` in every second title, version 1.3.0 on every third; 2,997 and 3,000
    // edited after their facets were recorded (the one gains the word, the other loses it).
    await manyReports(t, project, 3_000, 1)
    await sqlRun(t, "UPDATE reports SET title = 'Crash on load' WHERE project_id = ? AND report_number % 2 = 0", project.id)
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT project_id, 1, '1.3.0', seq FROM reports WHERE project_id = ? AND report_number % 3 = 0", project.id)
    await sqlRun(t, "UPDATE reports SET title = CASE report_number WHEN 2997 THEN 'Crash at the boss' ELSE 'Freeze on load' END WHERE project_id = ? AND report_number IN (2997, 3000)", project.id)
    // As autovacuum does after a burst of inserts: the index's pending list merged, the statistics taken.
    await pgRows(t.config.databaseUrl!, 'VACUUM ANALYZE report_facet_sets')

    const { res, sent } = await listCatching(`${base}/bugs?q=${encodeURIComponent('crash version:1.3.0')}`, owner.token)
    // Every sixth report, less 3,000, and 2,997.
    expect(res.body.data.total).toBe(500)
    expect(res.body.data.bugs.slice(0, 3).map((b) => b.report_number)).toEqual([2997, 2994, 2988])

    // The walk that finds the matches, run again under EXPLAIN ANALYZE with sequential scans off: the
    // sets' index answers both the word and the version, and no report row is read to test the word
    // (the version's key walk probed `reports` for each of its 1,000 reports).
    const walks = sent.filter((s) => s.query.includes('report_facet_sets'))
    expect(walks.length).toBeGreaterThan(0)
    for (const statement of walks) {
      expect(statement.query).not.toContain('search_document')
      const nodes = await planNodes(statement, 'enable_seqscan = off')
      expect(nodes.some((n) => n['Index Name'] === 'report_facet_sets_ids_doc')).toBe(true)
      expect(nodes.filter((n) => n['Relation Name'] === 'reports' || n['Relation Name'] === 'report_facets').length).toBe(0)
    }
  })
})

describe.skipIf(onSqlite)('a facet sorted by a column on PostgreSQL (PostgreSQL: the page ordered before its rows are read)', () => {
  // The page's seqs are ordered first (from the covering index of sort keys at scale: at 1M reports the
  // busiest player's page went from ~30 to ~15 ms in the statement, scripts/bench/reports-list.ts), then
  // only their rows are read. What a user sees must not change: the same order, ties newest first, pages.
  it("orders a player's reports by players and by occurrences, ties newest first, page after page", async () => {
    const { project, owner, base } = await team(t)
    // 3,000 reports with scattered counts (many ties); the player filed every tenth: 300 of them.
    await manyReports(t, project, 3_000, 1)
    await sqlRun(t, 'UPDATE reports SET player_count = (report_number * 7919) % 100, occurrence_count = (report_number * 104729) % 50 WHERE project_id = ?', project.id)
    await sqlRun(t, "INSERT INTO report_facets (project_id, kind, value, report_seq) SELECT project_id, 3, 'player-0', seq FROM reports WHERE project_id = ? AND report_number % 10 = 0", project.id)
    await pgRows(t.config.databaseUrl!, 'VACUUM ANALYZE reports, report_facets')

    const theirs = Array.from({ length: 300 }, (_, i) => (i + 1) * 10)
    const by = (key: (n: number) => number) => [...theirs].sort((a, b) => key(b) - key(a) || b - a)
    const expected = { players: by((n) => (n * 7919) % 100), occurrences: by((n) => (n * 104729) % 50) }
    for (const sort of ['players', 'occurrences'] as const) {
      for (const page of [1, 2, 12]) {
        const { res } = await listCatching(`${base}/bugs?q=${encodeURIComponent('player:player-0')}&sort=${sort}&per_page=25&page=${page}`, owner.token)
        expect(res.body.data.total).toBe(300)
        expect(res.body.data.bugs.map((b) => b.report_number)).toEqual(expected[sort].slice((page - 1) * 25, page * 25))
      }
    }
  })
})

describe.skipIf(onSqlite)('a label-only total on PostgreSQL (PostgreSQL: counted from the label key)', () => {
  it("counts the label's rows less those of deleted reports, probing no report per row", async () => {
    const { project, owner, base } = await team(t)
    await t.deps.db.write((q) => q.insert(labels).values({ id: 'lab1', projectId: project.id, name: 'launch', color: '#123456', createdAt: t.clock.now() }))
    // 10,002 labelled reports past the cap, three of them deleted: 9,999 live, an exact total.
    await manyReports(t, project, 10_002, 10_001)
    await sqlRun(t, "INSERT INTO report_labels (report_id, report_seq, label_id) SELECT id, seq, 'lab1' FROM reports WHERE project_id = ?", project.id)
    await sqlRun(t, 'UPDATE reports SET deleted_at = 1 WHERE project_id = ? AND report_number IN (10001, 15000, 20002)', project.id)
    await sqlRun(t, 'ANALYZE reports')
    await sqlRun(t, 'ANALYZE report_labels')

    const { res, sent } = await listCatching(`${base}/bugs?label=lab1`, owner.token)
    expect(res.body.data.total).toBe(9_999)
    expect(res.body.data.bugs[0]!.report_number).toBe(20_001)
    // The total's statement reads the label's key; `reports` only for the deleted ones and one row
    // standing for the project, where counting matches probed a report for each of 10,000 rows.
    const totals = sent.filter((st) => st.query.includes('least(w.n - g.n'))
    expect(totals).toHaveLength(1)
    const nodes = await planNodes(totals[0]!, 'enable_seqscan = off')
    const reportProbes = nodes.filter((n) => n['Relation Name'] === 'reports' || n['Index Name'] === 'reports_pkey').reduce((sum, n) => sum + (n['Actual Loops'] ?? 0) * (n['Actual Rows'] ?? 0), 0)
    expect(reportProbes).toBeLessThanOrEqual(3 + 1)

    // One more deleted: still exact; a fourth of the rows deleted changes nothing but the total.
    await sqlRun(t, 'UPDATE reports SET deleted_at = 1 WHERE project_id = ? AND report_number % 4 = 0', project.id)
    expect((await listCatching(`${base}/bugs?label=lab1`, owner.token)).res.body.data.total).toBe(10_002 - 3 - 2_500 + 1)
  })
})

describe('a label filter lists its reports newest first under every sort', () => {
  it('pages, totals and sorts only the labelled live reports', async () => {
    const { project, owner, base } = await team(t)
    await t.deps.db.write((q) => q.insert(labels).values({ id: 'lab1', projectId: project.id, name: 'launch', color: '#123456', createdAt: t.clock.now() }))
    const priorities = ['low', 'critical', 'medium', 'high'] as const
    for (let i = 1; i <= 30; i++) {
      t.clock.advance(1000)
      const r = await createReportIn(t, project, { title: `Report ${i}`, priority: priorities[i % 4] })
      if (i % 3 === 0) await t.deps.db.write((q) => q.insert(reportLabels).values({ reportId: r.id, reportSeq: r.seq, labelId: 'lab1' }))
    }
    await t.request('DELETE', `${base}/bugs/30`, { token: owner.token })
    const get = async (query: string) =>
      (await t.request<{ data: { bugs: { report_number: number }[]; total: number } }>('GET', `${base}/bugs?label=lab1&${query}`, { token: owner.token })).body
    const labelled = [27, 24, 21, 18, 15, 12, 9, 6, 3]
    const first = await get('page=1')
    expect(first.data.total).toBe(9)
    expect(first.data.bugs.map((b) => b.report_number)).toEqual(labelled)
    const byPriority = await get('sort=priority')
    const rank = (n: number) => ['critical', 'high', 'medium', 'low'].indexOf(priorities[n % 4]!)
    expect(byPriority.data.bugs.map((b) => b.report_number)).toEqual([...labelled].sort((a, b) => rank(a) - rank(b) || b - a))
    expect((await get('q=Report')).data.bugs.map((b) => b.report_number)).toEqual(labelled)
  })

  it("lists and counts nothing for another project's label", async () => {
    const { project, owner, base } = await team(t)
    const other = await createProject(t, owner)
    await t.deps.db.write((q) => q.insert(labels).values({ id: 'theirs', projectId: other.id, name: 'theirs', color: '#654321', createdAt: t.clock.now() }))
    const r = await createReportIn(t, other, { title: 'Their report' })
    await t.deps.db.write((q) => q.insert(reportLabels).values({ reportId: r.id, reportSeq: r.seq, labelId: 'theirs' }))
    await createReportIn(t, project, { title: 'Our report' })
    const res = await t.request<{ data: { bugs: unknown[]; total: number } }>('GET', `${base}/bugs?label=theirs`, { token: owner.token })
    expect(res.body.data.bugs).toEqual([])
    expect(res.body.data.total).toBe(0)
  })
})
