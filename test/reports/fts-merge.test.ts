import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mergeSearchSegments } from '../../src/modules/reports/reports.fts-merge'
import { createProject, createReportIn, createUser } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { onSqlite } from '../helpers/pg-engine'

const segments = (t: TestApp) => (t.sqlite.query('SELECT count(DISTINCT segid) AS n FROM reports_fts_idx').get() as { n: number }).n

describe.skipIf(!onSqlite)('background merging of the search index (SQLite: FTS5 merge)', () => {
  let t: TestApp
  beforeEach(() => {
    t = createTestApp()
  })
  afterEach(() => t.close())

  it('inserts leave small segments that the merge step folds together, and search still finds every report', async () => {
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    for (let i = 0; i < 60; i++) await createReportIn(t, project, { title: `Crash number ${i}`, description: `lighthouse ${i % 2 ? 'odd' : 'even'}` })
    const before = segments(t)
    expect(before).toBeGreaterThan(4)
    expect(await mergeSearchSegments(t.deps)).toBeGreaterThan(0)
    expect(segments(t)).toBeLessThan(before)
    expect(await mergeSearchSegments(t.deps)).toBe(0)
    const res = await t.request('GET', `/api/projects/${project.slug}/bugs?q=lighthouse+odd`, { token: owner.token })
    expect(res.body.data.total).toBe(30)
  })

  it('pauses between merge steps without holding a transaction, so other writes get in during a tick', async () => {
    const owner = await createUser(t)
    const project = await createProject(t, owner)
    for (let i = 0; i < 60; i++) await createReportIn(t, project, { title: `Freeze number ${i}`, description: `windmill ${i}` })
    let writesDuringMerge = 0
    let merging = true
    const writer = setInterval(async () => {
      if (!merging) return
      await createReportIn(t, project, { title: `Written while merging ${writesDuringMerge}`, description: 'windmill' })
      writesDuringMerge++
    }, 1)
    const steps = await mergeSearchSegments(t.deps, { pagesPerStep: 1, gapMs: 5 })
    merging = false
    clearInterval(writer)
    expect(steps).toBeGreaterThan(0)
    expect(writesDuringMerge).toBeGreaterThan(0)
    const res = await t.request('GET', `/api/projects/${project.slug}/bugs?q=windmill`, { token: owner.token })
    expect(res.body.data.total).toBe(60 + writesDuringMerge)
  })
})
