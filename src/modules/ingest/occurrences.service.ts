import type { AppDeps } from '../../app-deps'
import type { Seam } from '../../db/client'
import type { Project } from '../projects/projects.repository'
import { badRequest } from '../../http/errors'
import { recordActivity } from '../activity/activity.service'
import { createAttachmentsRepository } from '../attachments/attachments.repository'
import { liveReport } from '../reports/project-reports'
import { createReport } from '../reports/reports.service'
import { createIngestRepository, type Occurrence } from './ingest.repository'
import { recountReport } from './recount'
import { createReportFacetsRepository } from '../reports/report-facets.repository'
import { scoreSentiment } from './sentiment'

export const OCCURRENCES_PER_PAGE = 50

type Files = Pick<AppDeps, 'files'>['files']

/** An occurrence as the team reads it: its own text, stack trace and logs, device, player and files. */
function occurrenceView(files: Files, o: Occurrence, files_: { id: string; fileName: string; fileSize: number; mimeType: string | null; fileKey: string }[]) {
  return {
    id: o.id,
    title: o.title,
    description: o.description,
    steps_to_reproduce: o.stepsToReproduce,
    expected_behavior: o.expectedBehavior,
    actual_behavior: o.actualBehavior,
    source: o.source,
    error_type: o.errorType,
    device_info: o.deviceInfo,
    os_info: o.osInfo,
    platform: o.platform,
    runtime: [o.runtime, o.runtimeVersion].filter(Boolean).join(' '),
    browser: [o.browser, o.browserVersion].filter(Boolean).join(' '),
    environment: o.environment,
    game_version: o.gameVersion,
    player_id: o.playerId,
    reporter_name: o.reporterName,
    reporter_email: o.reporterEmail,
    metadata: o.metadata ?? null,
    screenshot_url: o.screenshotKey ? files.url(o.screenshotKey) : null,
    attachments: files_.map((a) => ({ id: a.id, file_name: a.fileName, file_size: a.fileSize, mime_type: a.mimeType, file_url: files.url(a.fileKey) })),
    client: o.client,
    event_id: o.eventId,
    // Only what the client said: a player's report has no level, and most events arrive when they happen.
    ...(o.level !== null && { level: o.level }),
    ...(o.handled !== null && { handled: o.handled }),
    ...(o.crash && { crash: true }),
    // When it happened by the client's clock (clamped: event-time.ts), and when received if later.
    created_at: o.createdAt.toISOString(),
    ...(o.receivedAt !== null && o.receivedAt.getTime() !== o.createdAt.getTime() && { received_at: o.receivedAt.toISOString() }),
  }
}

/** The attachments of these occurrences, by occurrence id. */
async function filesOf(db: Seam, ids: string[]) {
  const rows = await createAttachmentsRepository({ db }).ofOccurrences(ids)
  const by = new Map<string, typeof rows>()
  for (const r of rows) by.set(r.occurrenceId!, [...(by.get(r.occurrenceId!) ?? []), r])
  return by
}

/** One page (`perPage`, 50 by default) of a report's occurrences, the first submission included: newest first, or oldest first with `order=oldest`. */
export async function listOccurrences(deps: Pick<AppDeps, 'db' | 'files'>, project: Project, number: string, page: number, order: 'newest' | 'oldest' = 'newest', perPage = OCCURRENCES_PER_PAGE) {
  const report = await liveReport(deps.db, project.id, number)
  const repo = createIngestRepository({ db: deps.db })
  const total = await repo.countOf(report.id)
  const rows = await repo.page(report.id, order, perPage, (page - 1) * perPage)
  const files = await filesOf(deps.db, rows.map((o) => o.id))
  return { occurrences: rows.map((o) => occurrenceView(deps.files, o, files.get(o.id) ?? [])), total, page, per_page: perPage }
}

/** Screenshots the report's Attachments box lists at most: the newest, with how many there are in all. */
export const SCREENSHOTS_LISTED = 50

/** Every screenshot of a report's occurrences (the newest SCREENSHOTS_LISTED), each with the occurrence that sent it: when, version, platform, player. */
export async function listScreenshots(deps: Pick<AppDeps, 'db' | 'files'>, project: Project, number: string) {
  const report = await liveReport(deps.db, project.id, number)
  const { rows, total } = await createIngestRepository({ db: deps.db }).withScreenshots(report.id, SCREENSHOTS_LISTED)
  return {
    screenshots: rows.map((o) => ({
      occurrence_id: o.id,
      url: deps.files.url(o.screenshotKey!),
      created_at: o.createdAt.toISOString(),
      game_version: o.gameVersion,
      platform: o.platform,
      player: o.reporterName ?? o.playerId,
    })),
    total,
  }
}

/**
 * Moves chosen occurrences of report `number` into a new report made from their own evidence: the
 * oldest chosen gives its title, text, device, version, player and screenshot; the original's
 * category, priority and grouping key carry over. Their files move with them and both reports are
 * counted again. At least one occurrence stays with the original.
 */
export async function splitOccurrences(deps: Pick<AppDeps, 'db' | 'clock' | 'events'>, project: Project, actorId: string, number: string, occurrenceIds: string[]) {
  const ids = [...new Set(occurrenceIds)]
  return deps.db.write(async (tx) => {
    const repo = createIngestRepository({ db: tx })
    const original = await liveReport(tx, project.id, number)
    const chosen = await repo.ofReportByIds(original.id, ids)
    if (chosen.length !== ids.length) throw badRequest('occurrence_ids: every id must be an occurrence of this report')
    if (chosen.length >= original.occurrenceCount) throw badRequest('occurrence_ids: at least one occurrence must stay with the report')
    const first = chosen[0]!
    const sentiment = first.source === 'user' ? scoreSentiment([first.title, first.description, first.stepsToReproduce]) : null
    const report = await createReport(deps, tx, project, {
      title: first.title || original.title,
      description: first.description || original.description,
      stepsToReproduce: first.stepsToReproduce,
      expectedBehavior: first.expectedBehavior,
      actualBehavior: first.actualBehavior,
      category: original.category,
      priority: original.priority,
      source: first.source,
      errorType: first.errorType || original.errorType,
      platform: first.platform,
      gameVersion: first.gameVersion,
      osInfo: first.osInfo,
      deviceInfo: first.deviceInfo,
      playerId: first.playerId,
      reporterName: first.reporterName,
      reporterEmail: first.reporterEmail,
      metadata: first.metadata,
      screenshotKey: first.screenshotKey,
      sentimentScore: sentiment?.score ?? null,
      sentimentLevel: sentiment?.level ?? null,
      fingerprint: original.fingerprint,
      groupingLabel: original.groupingLabel,
      createdBy: actorId,
      withoutOccurrence: true,
    })
    const moved = chosen.map((o) => o.id)
    await repo.moveTo(moved, report.id)
    await createAttachmentsRepository({ db: tx }).moveOccurrencesTo(moved, report.id)
    await recountReport(tx, report)
    await recountReport(tx, original)
    await createReportFacetsRepository({ db: tx }).dropLeftWith(original, moved)
    await recordActivity(tx, deps.clock.now(), [{ projectId: project.id, reportId: original.id, actorId, action: 'split', newValue: report.reportNumber }])
    return { id: report.id, report_number: report.reportNumber, occurrences: chosen.length }
  })
}
