import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import type { Seam } from '../../db/client'
import { attachments } from '../attachments/attachments.table'
import { reports } from '../reports/reports.table'
import { reportOccurrences } from '../ingest/ingest.table'
import { sessionReplays } from '../sdk/sdk.table'

/** Keys of every stored file of a project's reports (deleted ones too): screenshots, attachments, replays. */
export async function projectFileKeys(db: Seam, projectId: string): Promise<string[]> {
  const lists = await db.read(async (q) => {
    // Child rows are reached through the project's report ids, which use the reports index.
    const reportIds = q.select({ id: reports.id }).from(reports).where(eq(reports.projectId, projectId))
    return [
      await q.select({ key: reports.screenshotKey }).from(reports).where(and(eq(reports.projectId, projectId), isNotNull(reports.screenshotKey))),
      await q.select({ key: reportOccurrences.screenshotKey }).from(reportOccurrences).where(and(inArray(reportOccurrences.reportId, reportIds), isNotNull(reportOccurrences.screenshotKey))),
      await q.select({ key: attachments.fileKey }).from(attachments).where(inArray(attachments.reportId, reportIds)),
      await q.select({ key: sessionReplays.fileKey }).from(sessionReplays).where(inArray(sessionReplays.reportId, reportIds)),
    ]
  })
  return [...new Set(lists.flat().map((r) => r.key!))]
}
