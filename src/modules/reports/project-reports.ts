import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { createReportsRepository, type Report } from './reports.repository'

/** The live (not deleted) report numbered `number` in a project, or 404. */
export async function liveReportByNumber(db: Seam, projectId: string, number: string | number): Promise<Report> {
  const n = Number(number)
  const row = Number.isSafeInteger(n) && n > 0 ? await createReportsRepository({ db }).byNumber(projectId, n) : undefined
  if (!row || row.deletedAt) throw notFound('bug not found')
  return row
}

/** Path `{number}` as a report number: a positive integer, else null. */
export const parseReportNumber = (raw: string): number | null => (/^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null)

/** The live report `number` of a project, or 404 `report not found` (also for a malformed number). */
export async function liveReport(db: Seam, projectId: string, rawNumber: string): Promise<Report> {
  const number = parseReportNumber(rawNumber)
  const report = number === null ? undefined : await createReportsRepository({ db }).findLive(projectId, number)
  if (!report) throw notFound('report not found')
  return report
}
