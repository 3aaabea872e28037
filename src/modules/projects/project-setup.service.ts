import { and, eq, isNull } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import type { Project } from '../../http/auth.plugin'
import { createReport } from '../reports/reports.service'
import { reports } from '../reports/reports.table'

const exists = (db: DbOrTx, where: ReturnType<typeof and>) => db.select({ one: reports.seq }).from(reports).where(where).limit(1).get() !== undefined

/** How far the project's SDK set-up has come: first report, first session, reports sent by a game client. */
export function setupStatus(db: DbOrTx, project: Project) {
  // Reports filed by a team member carry their user id; SDK submissions have none.
  const fromSdk = exists(db, and(eq(reports.projectId, project.id), isNull(reports.createdBy)))
  return {
    sdk_connected: fromSdk || project.firstSessionAt !== null,
    has_reports: exists(db, and(eq(reports.projectId, project.id), isNull(reports.deletedAt))),
    reports_from_sdk: fromSdk,
    has_sessions: project.firstSessionAt !== null,
    first_report_at: project.firstReportAt?.toISOString() ?? null,
    first_session_at: project.firstSessionAt?.toISOString() ?? null,
  }
}

/** Files a sample report as the caller, so the team sees a report arrive end to end. */
export function sendTestReport(deps: Pick<AppDeps, 'db' | 'clock' | 'events'>, project: Project, userId: string) {
  const report = deps.db.transaction((tx) =>
    createReport(deps, tx, project, {
      title: 'Test report from Glitchbox',
      description: 'This sample report was filed from the project set-up page to check that reports arrive. You can delete it.',
      priority: 'low',
      category: 'other',
      platform: 'Test',
      source: 'user',
      createdBy: userId,
    }),
  )
  return { id: report.id, report_number: report.reportNumber }
}
