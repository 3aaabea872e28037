// Rollups that run at once count each row once: a page's catch-up and the scheduled job (or two
// nodes) roll up side by side on PostgreSQL, and each step takes its turn on the cursor
// (analytics.rollup.ts); without it both read the cursor before either moved it and a day showed
// twice its reports. On SQLite the single writer gave the same.
import { afterEach, describe, expect, it } from 'vitest'
import { rollUpAnalytics } from '../../src/modules/analytics/analytics.rollup'
import { countNewReports, reportCountsSince } from '../../src/modules/workflow/hourly-counts'
import { createReportIn } from '../helpers/fixtures'
import { setup } from './analytics-helpers'

let close: (() => unknown) | undefined
afterEach(() => close?.())

describe('rollups running at once', () => {
  it('count every report once on the dashboard, however many run together', async () => {
    const { t, project, owner } = await setup()
    close = t.close
    for (let i = 0; i < 7; i++) await createReportIn(t, project, { title: `Bug ${i}`, description: 'x' })
    await Promise.all(Array.from({ length: 4 }, () => rollUpAnalytics(t.deps.db, t.clock.now())))
    const mine = (await t.request('GET', `/api/projects/${project.slug}/dashboard`, { token: owner.token })).body.data
    expect(mine.daily.reduce((n: number, d: { new: number }) => n + d.new, 0)).toBe(7)
  })

  it("count every report once in the alerts' hourly buckets, however many run together", async () => {
    const { t, project } = await setup()
    close = t.close
    for (let i = 0; i < 7; i++) await createReportIn(t, project, { title: `Bug ${i}`, description: 'x' })
    const now = t.clock.now()
    await Promise.all(Array.from({ length: 4 }, () => countNewReports(t.deps, now)))
    const counts = await reportCountsSince(t.deps, project.id, new Date(now.getTime() - 86_400_000))
    expect(Number(counts.reports)).toBe(7)
  })
})
