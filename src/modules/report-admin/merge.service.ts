import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { Project } from '../projects/projects.repository'
import { badRequest } from '../../http/errors'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { createAttachmentsRepository } from '../attachments/attachments.repository'
import { createCommentsRepository } from '../comments/comments.repository'
import { createGitRepository } from '../git/git.repository'
import { createIntegrationsRepository } from '../integrations/integrations.repository'
import { createLabelsRepository } from '../labels/labels.repository'
import { createNotificationsRepository } from '../notifications/notifications.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { createPublicRepository } from '../public/public.repository'
import { liveReport } from '../reports/project-reports'
import { COUNT_CAP, listFiltersOf, matchingReports } from '../reports/reports.list'
import type { ListFilterQuery } from '../reports/reports.schemas'
import type { Report } from '../reports/reports.service'
import { createReportsRepository } from '../reports/reports.repository'
import { createReportFacetsRepository } from '../reports/report-facets.repository'
import { createSdkRepository } from '../sdk/sdk.repository'
import { createDependenciesRepository } from '../workflow/dependencies.repository'
import { createIngestRepository } from '../ingest/ingest.repository'
import { recountReport } from '../ingest/recount'

/** Which reports a merge folds in: these numbers (1 to 100), or every report the list shows for `filter` (at most 10,000) but the survivor. */
export type MergeSelector = { numbers: number[]; filter?: undefined } | { filter: ListFilterQuery; numbers?: undefined }

/**
 * `POST /bugs/{number}/merge {numbers | filter}`: folds other reports of the project into this one,
 * as when they had been grouped together from the start. Their occurrences (with their files) become
 * this report's; comments, labels, votes, subscriptions, attachments, performance samples, replays
 * and links to trackers and repositories carry over (where this report has no link of its own to
 * that tool); the merged reports are deleted with `merged_into` set, so their numbers redirect here.
 * One transaction, one statement per table whatever the number of reports, audited; splitting the
 * moved occurrences out again undoes it.
 */
export async function mergeReports(deps: Pick<AppDeps, 'db' | 'clock'>, project: Project, actorId: string, number: string, selector: MergeSelector) {
  return deps.db.write(async (tx) => {
    const reportsRepo = createReportsRepository({ db: tx })
    const survivor = await liveReport(tx, project.id, number)
    const merged = selector.filter ? await byFilter(deps, tx, project, survivor, selector.filter) : await byNumbers(tx, project, survivor, selector.numbers)
    const now = deps.clock.now()
    const mergedIds = merged.map((m) => m.id)
    // Before their occurrences move: the values to take are read from them.
    await createReportFacetsRepository({ db: tx }).dropOfReports(project.id, mergedIds)
    await createIngestRepository({ db: tx }).moveAllTo(mergedIds, survivor.id)
    await createSdkRepository({ db: tx }).moveToReport(mergedIds, survivor.id)
    await createCommentsRepository({ db: tx }).moveToReport(mergedIds, survivor.id)
    await createLabelsRepository({ db: tx }).copyToReport(mergedIds, survivor)
    await moveOthers(tx, merged, survivor)
    await reportsRepo.markMerged(mergedIds, survivor.id, now)
    await createProjectsRepository({ db: tx }).dropLiveReports(project.id, merged.length)
    await recountReport(tx, survivor)
    const mergedNumbers = merged.map((m) => m.reportNumber).sort((a, b) => a - b)
    await recordActivity(tx, now, [
      { projectId: project.id, reportId: survivor.id, actorId, action: 'merged', newValue: mergedNumbers },
      ...merged.map((m) => ({ projectId: project.id, reportId: m.id, actorId, action: 'merged_into', newValue: survivor.reportNumber })),
    ])
    const details = selector.filter ? { merged: mergedNumbers, filter: selector.filter, count: merged.length } : { merged: mergedNumbers }
    await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'reports.merged', target: `#${survivor.reportNumber}`, details })
    const after = (await reportsRepo.countsOf(survivor.id))!
    return { id: survivor.id, report_number: survivor.reportNumber, merged: mergedNumbers, occurrence_count: after.occurrences, player_count: after.players, upvotes: after.upvotes }
  })
}

async function byNumbers(tx: Query, project: Project, survivor: Report, numbers: number[]): Promise<Report[]> {
  const wanted = [...new Set(numbers)]
  if (wanted.includes(survivor.reportNumber)) throw badRequest('numbers: a report cannot be merged into itself')
  const merged = await createReportsRepository({ db: tx }).liveByNumbers(project.id, wanted)
  if (merged.length !== wanted.length) {
    const found = new Set(merged.map((r) => r.reportNumber))
    throw badRequest(`numbers: no live report #${wanted.filter((n) => !found.has(n)).join(', #')} in this project`)
  }
  return merged
}

/** The reports the list shows for `filter`, the survivor left out; 400 for none or more than COUNT_CAP. */
async function byFilter(deps: Pick<AppDeps, 'db'>, tx: Query, project: Project, survivor: Report, filter: ListFilterQuery): Promise<Report[]> {
  const matched = await matchingReports(deps.db, project.id, await listFiltersOf(deps.db, project.id, filter))
  if (matched.capped) throw badRequest(`filter: it matches more than ${COUNT_CAP.toLocaleString('en')} reports; a merge by filter takes at most ${COUNT_CAP.toLocaleString('en')}, narrow it`)
  const ids = matched.reports.filter((r) => r.id !== survivor.id).map((r) => r.id)
  if (ids.length === 0) throw badRequest(`filter: no report but #${survivor.reportNumber} matches it, nothing to merge`)
  return createReportsRepository({ db: tx }).byIds(ids)
}

/**
 * Moves what other domains keep of the `from` reports onto `to` (occurrences, samples, replays, comments
 * and labels move above), each through its domain's repository; rows `to` already has an equivalent of
 * (a follower, a voter, a tracker link) stay behind. Set-based: a few statements per table for any number.
 */
async function moveOthers(tx: Query, from: Report[], to: Report): Promise<void> {
  const ids = from.map((r) => r.id)
  await createAttachmentsRepository({ db: tx }).moveToReport(ids, to.id)
  await createNotificationsRepository({ db: tx }).moveSubscriptions(ids, to.id)
  await createIntegrationsRepository({ db: tx }).moveLinks(ids, to.id)
  await createGitRepository({ db: tx }).moveLink(ids, to.id)
  await createDependenciesRepository({ db: tx }).moveToReport(ids, to.id)
  // A voter counts once: votes of people who voted for several are not added twice. Upvotes with no
  // voter row behind them (counted before votes were recorded per voter) carry over as they are.
  const votes = createPublicRepository({ db: tx })
  const backed = await votes.voteCountsOf(from.map((r) => r.seq))
  const unbacked = from.reduce((n, r) => n + Math.max(0, r.upvotes - (backed.get(r.seq) ?? 0)), 0)
  const added = await votes.copyVotes(from.map((r) => r.seq), to.seq)
  if (unbacked + added > 0) await createReportsRepository({ db: tx }).addUpvotes(to.id, unbacked + added)
}
