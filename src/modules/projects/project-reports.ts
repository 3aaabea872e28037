import type { Seam } from '../../db/client'
import { notFound } from '../../http/errors'
import { createReportsRepository } from '../reports/reports.repository'
import type { Report } from '../reports/reports.service'

/** The live (not deleted) report numbered `number` in a project, or 404. */
export async function liveReportByNumber(db: Seam, projectId: string, number: string | number): Promise<Report> {
  const n = Number(number)
  const row = Number.isSafeInteger(n) && n > 0 ? await createReportsRepository({ db }).byNumber(projectId, n) : undefined
  if (!row || row.deletedAt) throw notFound('bug not found')
  return row
}
