// The publish rule exists twice: as SQL (what the public pages read) and in memory (the reason the
// team's report page gives). They must agree on every combination.
import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PUBLISH_MODES, type PublishRules, publicationOf } from '../../src/modules/reports/report-publication'
import { publicReportsOf } from '../../src/modules/public/public.repository'
import type { Report } from '../../src/modules/reports/reports.service'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'
import { setReport } from './public-fixtures'

let t: TestApp
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  project = await createProject(t, await createUser(t))
})
afterEach(() => t.close())

describe('the SQL rule and the report page agree', () => {
  it('for every mode, auto-filed rule, explicit publication, privacy and triage', async () => {
    const rows: Report[] = []
    for (const published of [null, true, false])
      for (const isPrivate of [false, true])
        for (const triaged of [false, true])
          for (const auto of [false, true]) {
            const r = await createReportIn(t, project, { source: auto ? 'system' : 'user' })
            await setReport(t, r, { published, isPrivate, triagedAt: triaged ? t.clock.now() : null })
            rows.push((await t.deps.db.read((q) => q.select().from(reports).where(eq(reports.id, r.id)).limit(1)))[0]!)
          }
    for (const publish of PUBLISH_MODES)
      for (const include of [false, true]) {
        const rules: PublishRules = { publish, include_auto_filed: include }
        const bySql = new Set((await t.deps.db.read((q) => q.select({ id: reports.id }).from(reports).where(publicReportsOf(project.id, rules)))).map((r) => r.id))
        for (const r of rows) expect(publicationOf(r, rules).shown, JSON.stringify({ rules, published: r.published, private: r.isPrivate, triaged: !!r.triagedAt, auto: r.autoFiled })).toBe(bySql.has(r.id))
      }
  })
})
