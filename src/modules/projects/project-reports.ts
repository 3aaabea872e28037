import { and, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { notFound } from '../../http/errors'
import type { Report } from '../reports/reports.service'
import { reports } from '../reports/reports.table'

/** The live (not deleted) report numbered `number` in a project, or 404. */
export function liveReportByNumber(db: DbOrTx, projectId: string, number: string | number): Report {
  const n = Number(number)
  const row = Number.isSafeInteger(n) && n > 0
    ? db.select().from(reports).where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, n), isNull(reports.deletedAt))).get()
    : undefined
  if (!row) throw notFound('bug not found')
  return row
}
