import { asc, eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { jobs } from '../../src/jobs/jobs.table'
import { activity } from '../../src/modules/activity/activity.table'
import { reportOccurrences } from '../../src/modules/ingest/ingest.table'
import { NEW_REPORTS_KIND } from '../../src/modules/notifications/notifications.new-reports'
import { projects } from '../../src/modules/projects/projects.table'
import { FACET, reportFacets } from '../../src/modules/reports/report-facets'
import { createReport } from '../../src/modules/reports/reports.service'
import { reports } from '../../src/modules/reports/reports.table'
import { createProject, createReportIn, createUser, type TestProject } from '../helpers/fixtures'
import { createTestApp, type TestApp } from '../helpers/test-app'

// Filing a report is one async write over the seam (issue 30), on either engine: its rows, its
// number and the jobs its event subscribers queue commit together or not at all.
let t: TestApp
let project: TestProject
beforeEach(async () => {
  t = createTestApp()
  project = await createProject(t, await createUser(t))
})
afterEach(() => t.close())

describe('createReport', () => {
  it('files reports numbered in order, each with its first occurrence, list facets and created entry', async () => {
    for (let i = 0; i < 3; i++) await createReportIn(t, project, { gameVersion: '1.0', platform: 'PC', playerId: `player-${i}` })
    const filed = await t.deps.db.read((q) => q.select({ id: reports.id, seq: reports.seq, number: reports.reportNumber, players: reports.playerCount }).from(reports).orderBy(asc(reports.seq)))
    expect(filed.map((r) => Number(r.number))).toEqual([1, 2, 3])
    expect(filed.map((r) => Number(r.players))).toEqual([1, 1, 1])
    const occurrences = await t.deps.db.read((q) => q.select({ reportId: reportOccurrences.reportId, playerId: reportOccurrences.playerId }).from(reportOccurrences))
    expect(occurrences.map((o) => o.reportId).sort()).toEqual(filed.map((r) => r.id).sort())
    const facets = await t.deps.db.read((q) => q.select({ kind: reportFacets.kind, value: reportFacets.value }).from(reportFacets).where(eq(reportFacets.reportSeq, filed[0]!.seq)))
    expect(facets.map((f) => [Number(f.kind), f.value]).sort()).toEqual([[FACET.version, '1.0'], [FACET.platform, 'PC'], [FACET.player, 'player-0']].sort())
    const created = await t.deps.db.read((q) => q.select({ reportId: activity.reportId }).from(activity).where(eq(activity.action, 'created')))
    expect(created.map((a) => a.reportId).sort()).toEqual(filed.map((r) => r.id).sort())
    const [counter] = await t.deps.db.read((q) => q.select({ last: projects.lastReportNumber, live: projects.liveReportCount }).from(projects).where(eq(projects.id, project.id)))
    expect({ last: Number(counter!.last), live: Number(counter!.live) }).toEqual({ last: 3, live: 3 })
  })

  it('leaves no report, number or queued job behind when the write that files it fails after an await', async () => {
    await expect(
      t.deps.db.write(async (tx) => {
        await createReport(t.deps, tx, project, { title: 'Crash on load', description: 'at Boot.cs' })
        await Promise.resolve()
        throw new Error('change failed')
      }),
    ).rejects.toThrow('change failed')
    expect(await t.deps.db.read((q) => q.select({ id: reports.id }).from(reports))).toEqual([])
    expect(await t.deps.db.read((q) => q.select({ id: reportOccurrences.id }).from(reportOccurrences))).toEqual([])
    expect(await t.deps.db.read((q) => q.select({ id: jobs.id }).from(jobs))).toEqual([])
    // The number was not spent: the next report is still number 1, and its new-reports mail job is queued.
    expect(Number((await createReportIn(t, project)).reportNumber)).toBe(1)
    expect((await t.deps.db.read((q) => q.select({ kind: jobs.kind }).from(jobs))).map((j) => j.kind)).toEqual([NEW_REPORTS_KIND])
  })
})
