import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, notFound } from '../../http/errors'
import type { Project } from '../../http/auth.plugin'
import { recordActivity } from '../activity/activity.service'
import { createReport } from '../reports/reports.service'
import { reports } from '../reports/reports.table'
import { reportOccurrences } from './sdk.table'

export const OCCURRENCES_PER_PAGE = 50

type Occurrence = typeof reportOccurrences.$inferSelect

function liveReport(db: DbOrTx, project: Project, number: number) {
  const report = db
    .select()
    .from(reports)
    .where(and(eq(reports.projectId, project.id), eq(reports.reportNumber, number), isNull(reports.deletedAt)))
    .get()
  if (!report) throw notFound('bug report not found')
  return report
}

function serializeOccurrence(deps: Pick<AppDeps, 'files'>, o: Occurrence) {
  return {
    id: o.id,
    device_info: o.deviceInfo,
    os_info: o.osInfo,
    platform: o.platform,
    game_version: o.gameVersion,
    player_id: o.playerId,
    reporter_name: o.reporterName,
    metadata: o.metadata,
    screenshot_url: o.screenshotKey ? deps.files.url(o.screenshotKey) : null,
    created_at: o.createdAt.toISOString(),
  }
}

/** One page (50, newest first) of the submissions stacked onto report `number`. */
export function listOccurrences(deps: Pick<AppDeps, 'db' | 'files'>, project: Project, number: number, page: number) {
  const report = liveReport(deps.db, project, number)
  const where = eq(reportOccurrences.reportId, report.id)
  const [{ total }] = deps.db.select({ total: count() }).from(reportOccurrences).where(where).all() as [{ total: number }]
  const rows = deps.db
    .select()
    .from(reportOccurrences)
    .where(where)
    .orderBy(desc(reportOccurrences.createdAt), desc(sql`rowid`))
    .limit(OCCURRENCES_PER_PAGE)
    .offset((page - 1) * OCCURRENCES_PER_PAGE)
    .all()
  return { occurrences: rows.map((o) => serializeOccurrence(deps, o)), total, page, per_page: OCCURRENCES_PER_PAGE }
}

/**
 * Moves chosen occurrences of report `number` into a new report with the original's title, text,
 * category and priority. The oldest chosen occurrence becomes the new report itself (its device,
 * version, player and screenshot), the others its occurrences; both occurrence counts follow.
 */
export function splitOccurrences(deps: Pick<AppDeps, 'db' | 'clock' | 'events'>, project: Project, actorId: string, number: number, occurrenceIds: string[]) {
  const ids = [...new Set(occurrenceIds)]
  return deps.db.transaction((tx) => {
    const original = liveReport(tx, project, number)
    const chosen = tx
      .select()
      .from(reportOccurrences)
      .where(and(eq(reportOccurrences.reportId, original.id), inArray(reportOccurrences.id, ids)))
      .orderBy(reportOccurrences.createdAt, sql`rowid`)
      .all()
    if (chosen.length !== ids.length) throw badRequest('occurrence_ids: every id must be an occurrence of this report')
    const [first, ...rest] = chosen as [Occurrence, ...Occurrence[]]
    const report = createReport(deps, tx, project, {
      title: original.title,
      description: original.description,
      category: original.category,
      priority: original.priority,
      stepsToReproduce: original.stepsToReproduce,
      expectedBehavior: original.expectedBehavior,
      actualBehavior: original.actualBehavior,
      source: original.source,
      platform: first.platform,
      gameVersion: first.gameVersion,
      osInfo: first.osInfo,
      deviceInfo: first.deviceInfo,
      playerId: first.playerId,
      reporterName: first.reporterName,
      metadata: first.metadata,
      screenshotKey: first.screenshotKey,
      sentimentScore: original.sentimentScore,
      sentimentLevel: original.sentimentLevel,
      createdBy: actorId,
    })
    const now = deps.clock.now()
    tx.delete(reportOccurrences).where(eq(reportOccurrences.id, first.id)).run()
    if (rest.length) {
      tx.update(reportOccurrences).set({ reportId: report.id }).where(inArray(reportOccurrences.id, rest.map((o) => o.id))).run()
      tx.update(reports).set({ occurrenceCount: 1 + rest.length }).where(eq(reports.id, report.id)).run()
    }
    tx.update(reports)
      .set({ occurrenceCount: sql`max(1, ${reports.occurrenceCount} - ${chosen.length})`, updatedAt: now })
      .where(eq(reports.id, original.id))
      .run()
    recordActivity(tx, now, [{ projectId: project.id, reportId: original.id, actorId, action: 'split', newValue: report.reportNumber }])
    return { id: report.id, report_number: report.reportNumber }
  })
}
