import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Db, DbOrTx } from '../../db/client'
import { AppError, notFound } from '../../http/errors'
import { activity } from '../activity/activity.table'
import { users } from '../auth/auth.table'
import { comments } from '../comments/comments.table'
import { perfSnapshots, sessionReplays } from '../sdk/sdk.table'
import { publicationOf } from '../public/publication'
import { readSettings } from '../settings/settings.service'
import { labelsByReport } from './reports.list'
import type { Report } from './reports.service'
import { reports } from './reports.table'
import { reportView } from './reports.views'
import { createCustomFieldsRepository } from '../workflow/custom-fields.repository'
import { createDependenciesRepository } from '../workflow/dependencies.repository'
import { slaOfReport } from '../workflow/sla.service'

const DONE = ['resolved', 'closed', 'wont_fix']

const ph = sql.placeholder
const userName = sql<string | null>`coalesce(${users.displayName}, ${users.name})`

const statements = new WeakMap<Db, ReturnType<typeof prepare>>()

function prepare(db: Db) {
  return {
    comments: db
      .select({ id: comments.id, body: comments.body, isInternal: comments.isInternal, authorId: comments.authorId, authorName: userName, createdAt: comments.createdAt })
      .from(comments)
      .leftJoin(users, eq(users.id, comments.authorId))
      .where(eq(comments.reportId, ph('reportId')))
      .orderBy(asc(comments.createdAt), asc(comments.id))
      .prepare(),
    activity: db
      .select({
        id: activity.seq,
        action: activity.action,
        field: activity.field,
        oldValue: activity.oldValue,
        newValue: activity.newValue,
        actorId: activity.actorId,
        actorName: userName,
        createdAt: activity.createdAt,
      })
      .from(activity)
      .leftJoin(users, eq(users.id, activity.actorId))
      .where(eq(activity.reportId, ph('reportId')))
      .orderBy(asc(activity.seq))
      .prepare(),
    liveReport: db
      .select({ report_number: reports.reportNumber, title: reports.title })
      .from(reports)
      .where(and(eq(reports.id, ph('id')), isNull(reports.deletedAt)))
      .prepare(),
    feedbackOn: db
      .select({ report_number: reports.reportNumber, title: reports.title })
      .from(reports)
      .where(and(eq(reports.feedbackFor, ph('id')), isNull(reports.deletedAt)))
      .orderBy(asc(reports.seq))
      .prepare(),
    perfCount: db.select({ n: count() }).from(perfSnapshots).where(eq(perfSnapshots.reportId, ph('reportId'))).prepare(),
    replayCount: db.select({ n: count() }).from(sessionReplays).where(eq(sessionReplays.reportId, ph('reportId'))).prepare(),
  }
}

function statementsFor(db: Db) {
  let st = statements.get(db)
  if (!st) statements.set(db, (st = prepare(db)))
  return st
}

/** Path `{number}` as a report number: a positive integer, else null. */
export const parseReportNumber = (raw: string): number | null => (/^[1-9]\d{0,14}$/.test(raw) ? Number(raw) : null)

/** The live report `number` of a project, or 404 `report not found` (also for a malformed number). */
export function findLiveReport(db: DbOrTx, projectId: string, rawNumber: string): Report {
  const number = parseReportNumber(rawNumber)
  const report =
    number === null
      ? undefined
      : db
          .select()
          .from(reports)
          .where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, number), isNull(reports.deletedAt)))
          .get()
  if (!report) throw notFound('report not found')
  return report
}

/** The number of the live report that report `rawNumber` was merged into (following later merges), or null. */
export function survivorOf(db: DbOrTx, projectId: string, rawNumber: string): number | null {
  const number = parseReportNumber(rawNumber)
  if (number === null) return null
  let row = db.select({ mergedInto: reports.mergedInto }).from(reports).where(and(eq(reports.projectId, projectId), eq(reports.reportNumber, number))).get()
  // A chain of merges is short; the bound only guards against a cycle in a damaged database.
  for (let hops = 0; row?.mergedInto && hops < 100; hops++) {
    const next = db.select({ number: reports.reportNumber, mergedInto: reports.mergedInto, deletedAt: reports.deletedAt }).from(reports).where(eq(reports.id, row.mergedInto)).get()
    if (!next) return null
    if (!next.mergedInto) return next.deletedAt ? null : next.number
    row = next
  }
  return null
}

/**
 * `GET /bugs/{number}`: the full record with its comments (internal ones too: the reader is on the
 * team) and labels. A number merged into another report answers 308 to the survivor's `location(n)`.
 */
export async function readReport(deps: Pick<AppDeps, 'db' | 'files' | 'clock'>, projectId: string, rawNumber: string, location?: (number: number) => string) {
  const st = statementsFor(deps.db)
  let report: Report
  try {
    report = findLiveReport(deps.db, projectId, rawNumber)
  } catch (err) {
    const survivor = location ? survivorOf(deps.db, projectId, rawNumber) : null
    if (survivor === null) throw err
    throw new AppError(308, `report #${rawNumber} was merged into #${survivor}`, { location: location!(survivor) }, { merged_into: survivor })
  }
  const labels = labelsByReport(deps.db, [report.id]).get(report.id) ?? []
  const [links, sla, customFields] = await Promise.all([
    createDependenciesRepository({ db: deps.db }).linksOf(report.id),
    slaOfReport(deps, report.id, deps.clock.now()),
    createCustomFieldsRepository({ db: deps.db }).reportValues(projectId, report.id),
  ])
  return {
    bug: {
      ...reportView(report, labels, deps.files),
      // Unresolved reports blocking this one (the list's blocked=true filter counts the same ones).
      sla,
      blocked_by: links.filter((d) => d.relationship === 'blocked_by' && !DONE.includes(d.report.status)).map((d) => d.report),
      // What the game sent with it; their own reads come with the analytics routes.
      perf_snapshot_count: st.perfCount.get({ reportId: report.id })?.n ?? 0,
      replay_count: st.replayCount.get({ reportId: report.id })?.n ?? 0,
      // Player feedback sent with a Sentry SDK and the report of the event it is about, each way.
      feedback_for: report.feedbackFor ? (st.liveReport.get({ id: report.feedbackFor }) ?? null) : null,
      feedback: st.feedbackOn.all({ id: report.id }),
      public_page: publicPageOf(deps.db, projectId, report),
    },
    dependencies: links,
    custom_fields: customFields,
    comments: st.comments.all({ reportId: report.id }).map((c) => ({
      id: c.id,
      body: c.body,
      is_internal: c.isInternal,
      author_id: c.authorId,
      author_name: c.authorName,
      created_at: c.createdAt.toISOString(),
    })),
    labels,
  }
}

/** Whether the public tracker shows the report now, and why (the publish rules of public/publication.ts). */
function publicPageOf(db: DbOrTx, projectId: string, report: Report) {
  const tracker = readSettings(db, projectId, 'tracker')
  const { shown, reason } = publicationOf(report, tracker)
  return { tracker_enabled: tracker.enabled, publish: tracker.publish, shown: tracker.enabled && shown, reason }
}

/** `GET /bugs/{number}/activity`: who changed what, oldest first. */
export function reportActivity(db: Db, projectId: string, rawNumber: string) {
  const report = findLiveReport(db, projectId, rawNumber)
  return statementsFor(db)
    .activity.all({ reportId: report.id })
    .map((a) => ({
      id: a.id,
      action: a.action,
      field: a.field,
      old_value: a.oldValue,
      new_value: a.newValue,
      actor_id: a.actorId,
      actor_name: a.actorName,
      created_at: a.createdAt.toISOString(),
    }))
}
