import type { AppDeps } from '../../app-deps'
import { publicUrlUnset } from '../../config/config'
import { sdkBudgetOf } from '../../http/sdk-refusals'
import { createIngestRepository } from '../ingest/ingest.repository'
import { createReportsRepository } from '../reports/reports.repository'
import { createReport } from '../reports/reports.service'
import { createSdkRepository } from '../sdk/sdk.repository'
import type { Project } from '../projects/projects.repository'

/**
 * How far the project's SDK set-up has come: first report, first session, reports sent by a game
 * client, the first Sentry event (a minidump or Unreal crash too) and Sentry session, and how many
 * SDK requests the SDK budget (`GLITCHBOX_RATE_LIMIT_PUBLIC`, per player address) refused in the last
 * hour, counted for the project's keys.
 */
export async function setupStatus(deps: Pick<AppDeps, 'db' | 'config' | 'sdkRefusals'>, project: Project) {
  const { db } = deps
  const reports = createReportsRepository({ db })
  const [fromSdk, hasReports, sentryEvent, sentrySession] = await Promise.all([
    // Reports filed by a team member carry their user id; SDK submissions have none.
    reports.hasReport(project.id, 'sdk'),
    reports.hasReport(project.id, 'live'),
    // Only Sentry's routes (events, minidumps, Unreal crashes) give an occurrence its client's event id.
    createIngestRepository({ db }).hasClientEvent(project.id),
    createSdkRepository({ db }).hasSentrySession(project.id),
  ])
  const budget = sdkBudgetOf(deps, project)
  return {
    sdk_connected: fromSdk || project.firstSessionAt !== null,
    has_reports: hasReports,
    reports_from_sdk: fromSdk,
    has_sessions: project.firstSessionAt !== null,
    has_sentry_events: sentryEvent,
    has_sentry_sessions: sentrySession,
    first_report_at: project.firstReportAt?.toISOString() ?? null,
    first_session_at: project.firstSessionAt?.toISOString() ?? null,
    public_url: { url: deps.config.publicUrl, set: !publicUrlUnset(deps.config) },
    sdk_budget: { per_minute: budget.per_minute, refused_last_hour: budget.refused_last_hour },
  }
}

/** Files a sample report as the caller, so the team sees a report arrive end to end. */
export async function sendTestReport(deps: Pick<AppDeps, 'db' | 'clock' | 'events'>, project: Project, userId: string) {
  const report = await deps.db.write((tx) =>
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
