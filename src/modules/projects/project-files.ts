import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { attachments } from '../attachments/attachments.table'
import { reports } from '../reports/reports.table'
import { reportOccurrences } from '../ingest/ingest.table'
import { sessionReplays } from '../sdk/sdk.table'

/** Keys of every stored file of a project's reports (deleted ones too): screenshots, attachments, replays. */
export function projectFileKeys(db: DbOrTx, projectId: string): string[] {
  // Child rows are reached through the project's report ids, which use the reports index.
  const reportIds = db.select({ id: reports.id }).from(reports).where(eq(reports.projectId, projectId))
  const lists = [
    db.select({ key: reports.screenshotKey }).from(reports).where(and(eq(reports.projectId, projectId), isNotNull(reports.screenshotKey))).all(),
    db.select({ key: reportOccurrences.screenshotKey }).from(reportOccurrences).where(and(inArray(reportOccurrences.reportId, reportIds), isNotNull(reportOccurrences.screenshotKey))).all(),
    db.select({ key: attachments.fileKey }).from(attachments).where(inArray(attachments.reportId, reportIds)).all(),
    db.select({ key: sessionReplays.fileKey }).from(sessionReplays).where(inArray(sessionReplays.reportId, reportIds)).all(),
  ]
  return [...new Set(lists.flat().map((r) => r.key!))]
}
