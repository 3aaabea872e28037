// The reports' search reads on both engines (FTS5 on SQLite, the tsvector index on PostgreSQL): similar
// titles, error types and the facet values the list offers. Reports go straight into the table through
// the seam, so the file runs in the suite's PostgreSQL mode too.
import { sql } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execute } from '../../src/db/client'
import { facetValues } from '../../src/modules/reports/report-facets'
import { reports } from '../../src/modules/reports/reports.table'
import { createReportsSearchRepository } from '../../src/modules/reports/reports.search.repository'
import { errorTypeCounts } from '../../src/modules/reports/reports.search'
import { createProject, createUser, type TestProject, type TestUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

let t: TestApp
let owner: TestUser
let project: TestProject

const TITLES: [string, string][] = [
  ['Crash in boss fight', 'NullReferenceException'],
  ['Boss fight crash', 'NullReferenceException'],
  ['Audio stutters in menu', ''],
  ['Café crash on résumé', 'AccessViolation'],
  ['Boss music too loud', ''],
]

beforeEach(async () => {
  t = createTestApp()
  owner = await createUser(t)
  project = await createProject(t, owner)
  const now = t.clock.now()
  await t.deps.db.write(async (q) => {
    for (const [i, [title, errorType]] of TITLES.entries()) {
      await q.insert(reports).values({ id: crypto.randomUUID(), projectId: project.id, reportNumber: i + 1, title, description: 'No crash here', errorType, createdAt: now, updatedAt: now })
    }
    // A deleted report is never similar.
    await q.insert(reports).values({ id: crypto.randomUUID(), projectId: project.id, reportNumber: 6, title: 'Boss fight crash again', description: 'd', errorType: 'Gone', createdAt: now, updatedAt: now, deletedAt: now })
    for (const [kind, value, seq] of [[1, '1.3.0', 1], [1, '1.10.0', 2], [2, 'Linux', 1], [2, 'linux', 2], [2, 'Windows', 3]] as const) {
      await execute(q, sql`INSERT INTO report_facets (project_id, kind, value, report_seq) VALUES (${project.id}, ${kind}, ${value}, ${seq}) ON CONFLICT DO NOTHING`)
    }
  })
})
afterEach(() => t.close())

describe('similar titles', () => {
  it('finds live reports sharing title words, best match first, through the API', async () => {
    const res = await t.request('GET', `/api/projects/${project.slug}/bugs/similar?title=${encodeURIComponent('boss fight crash')}`, { token: owner.token })
    expect(res.status).toBe(200)
    const numbers = res.body.data.map((r: { report_number: number }) => r.report_number)
    // Both titles with all three words first (newer first on a tie), then the ones with some.
    expect(numbers.slice(0, 2).sort()).toEqual([1, 2])
    expect(numbers.slice(2).sort()).toEqual([4, 5])
    expect(numbers).not.toContain(6)
  })

  it('ignores accents and case, and answers nothing for a title without significant words', async () => {
    const search = createReportsSearchRepository({ db: t.deps.db })
    expect((await search.similar(project.id, 'CAFE RESUME')).map((r) => r.reportNumber)).toEqual([4])
    expect(await search.similar(project.id, 'the and of')).toEqual([])
    expect(await search.similar(project.id, 'zeppelin')).toEqual([])
  })
})

describe('error types and facet values', () => {
  it('counts live reports per error type, and lists the distinct ones', async () => {
    expect(await errorTypeCounts(t.deps.db, project.id)).toEqual([
      { error_type: 'NullReferenceException', count: 2 },
      { error_type: 'AccessViolation', count: 1 },
    ])
    expect(await createReportsSearchRepository({ db: t.deps.db }).distinctErrorTypes(project.id)).toEqual(['AccessViolation', 'NullReferenceException'])
  })

  it('offers each version and platform once, versions newest first', async () => {
    const values = await facetValues(t.deps.db, project.id)
    expect(values.versions).toEqual(['1.10.0', '1.3.0'])
    expect(values.platforms.map((p) => p.toLowerCase())).toEqual(['linux', 'windows'])
  })
})
