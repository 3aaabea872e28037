import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import { AppError, notFound } from '../../http/errors'
import { reportActivityOf } from '../activity/activity.read'
import { createAuthRepository } from '../auth/auth.repository'
import { createCommentsRepository } from '../comments/comments.repository'
import { liveReport, parseReportNumber } from '../reports/project-reports'
import { publicationOf } from '../reports/report-publication'
import { settingsOf } from '../settings/settings.service'
import { createReportsRepository, type Report } from '../reports/reports.repository'
import { reportAdditions } from '../reports/report-additions'
import { reportView } from '../reports/reports.views'
import { createSdkRepository } from '../sdk/sdk.repository'
import { createCustomFieldsRepository } from '../workflow/custom-fields.repository'
import { createDependenciesRepository } from '../workflow/dependencies.repository'

const DONE = ['resolved', 'closed', 'wont_fix']

/**
 * `GET /bugs/{number}`: the full record with its comments (internal ones too: the reader is on the
 * team) and labels. A number merged into another report answers 308 to the survivor's `location(n)`.
 */
export async function readReport(deps: Pick<AppDeps, 'db' | 'files' | 'clock'>, projectId: string, rawNumber: string, location?: (number: number) => string) {
  const repo = createReportsRepository({ db: deps.db })
  const number = parseReportNumber(rawNumber)
  const report = number === null ? undefined : await repo.findLive(projectId, number)
  if (!report) {
    const survivor = location && number !== null ? await repo.survivorOf(projectId, number) : null
    if (survivor === null) throw notFound('report not found')
    throw new AppError(308, `report #${rawNumber} was merged into #${survivor}`, { location: location!(survivor) }, { merged_into: survivor })
  }
  const [labels, links, sla, customFields, telemetry, feedbackFor, feedback, comments, publicPage] = await Promise.all([
    reportAdditions().labelsOfReports(deps.db, [report.id]).then((m) => m.get(report.id) ?? []),
    createDependenciesRepository({ db: deps.db }).linksOf(report.id),
    reportAdditions().slaOfReport(deps, report.id, deps.clock.now()),
    createCustomFieldsRepository({ db: deps.db }).reportValues(projectId, report.id),
    createSdkRepository({ db: deps.db }).telemetryCountsOf(report.id),
    report.feedbackFor ? repo.liveSummary(report.feedbackFor) : null,
    repo.feedbackOn(report.id),
    createCommentsRepository({ db: deps.db }).ofReport(report.id),
    publicPageOf(deps.db, projectId, report),
  ])
  const authors = await createAuthRepository({ db: deps.db }).namesOf(comments.flatMap((c) => (c.authorId ? [c.authorId] : [])))
  return {
    bug: {
      ...reportView(report, labels, deps.files),
      // Unresolved reports blocking this one (the list's blocked=true filter counts the same ones).
      sla,
      blocked_by: links.filter((d) => d.relationship === 'blocked_by' && !DONE.includes(d.report.status)).map((d) => d.report),
      // What the game sent with it; their own reads come with the analytics routes.
      perf_snapshot_count: telemetry.perf,
      replay_count: telemetry.replays,
      // Player feedback sent with a Sentry SDK and the report of the event it is about, each way.
      feedback_for: feedbackFor,
      feedback,
      public_page: publicPage,
    },
    dependencies: links,
    custom_fields: customFields,
    comments: comments.map((c) => ({
      id: c.id,
      body: c.body,
      is_internal: c.isInternal,
      author_id: c.authorId,
      author_name: (c.authorId && authors.get(c.authorId)) ?? null,
      created_at: c.createdAt.toISOString(),
    })),
    labels,
  }
}

/** Whether the public tracker shows the report now, and why (the publish rules of reports/report-publication.ts). */
async function publicPageOf(db: Seam, projectId: string, report: Report) {
  const tracker = await settingsOf(db, projectId, 'tracker')
  const { shown, reason } = publicationOf(report, tracker)
  return { tracker_enabled: tracker.enabled, publish: tracker.publish, shown: tracker.enabled && shown, reason }
}

/** `GET /bugs/{number}/activity`: who changed what, oldest first. */
export async function reportActivity(db: Seam, projectId: string, rawNumber: string) {
  return reportActivityOf(db, (await liveReport(db, projectId, rawNumber)).id)
}
