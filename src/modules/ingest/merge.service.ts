import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Query } from '../../db/client'
import type { Project } from '../../http/auth.plugin'
import { badRequest } from '../../http/errors'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { createCommentsRepository } from '../comments/comments.repository'
import { createLabelsRepository } from '../labels/labels.repository'
import { createProjectsRepository } from '../projects/projects.repository'
import { findLiveReport } from '../reports/reports.read'
import { COUNT_CAP, listFiltersOf, matchingReports } from '../reports/reports.list'
import type { ListFilterQuery } from '../reports/reports.schemas'
import type { Report } from '../reports/reports.service'
import { createReportsRepository } from '../reports/reports.repository'
import { dropFacetsOfReports } from '../reports/report-facets'
import { createSdkRepository } from '../sdk/sdk.repository'
import { createIngestRepository } from './ingest.repository'
import { recountReport } from './recount'

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
    const survivor = findLiveReport(tx, project.id, number)
    const merged = selector.filter ? await byFilter(deps, tx, project, survivor, selector.filter) : await byNumbers(tx, project, survivor, selector.numbers)
    const now = deps.clock.now()
    const mergedIds = merged.map((m) => m.id)
    // Before their occurrences move: the values to take are read from them.
    dropFacetsOfReports(tx, project.id, mergedIds)
    await createIngestRepository({ db: tx }).moveAllTo(mergedIds, survivor.id)
    await createSdkRepository({ db: tx }).moveToReport(mergedIds, survivor.id)
    await createCommentsRepository({ db: tx }).moveToReport(mergedIds, survivor.id)
    await createLabelsRepository({ db: tx }).copyToReport(mergedIds, survivor)
    moveOthers(tx, merged, survivor)
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
  const matched = matchingReports(deps.db, project.id, listFiltersOf(deps.db, project.id, filter))
  if (matched.capped) throw badRequest(`filter: it matches more than ${COUNT_CAP.toLocaleString('en')} reports; a merge by filter takes at most ${COUNT_CAP.toLocaleString('en')}, narrow it`)
  const ids = matched.reports.filter((r) => r.id !== survivor.id).map((r) => r.id)
  if (ids.length === 0) throw badRequest(`filter: no report but #${survivor.reportNumber} matches it, nothing to merge`)
  return createReportsRepository({ db: tx }).byIds(ids)
}

/**
 * Moves what other domains keep of the `from` reports onto `to` (occurrences, samples, replays, comments
 * and labels move through their repositories, above); rows `to` already has an equivalent of (a label, a voter, a
 * tracker link) stay behind. Set-based: one statement per table for any number. Raw SQL over tables of
 * domains without a repository yet or without the statement in it (attachments, subscriptions,
 * integrations, git, dependencies, votes), synchronous inside the write until those domains take their part.
 */
function moveOthers(tx: Query, from: Report[], to: Report): void {
  const ids = JSON.stringify(from.map((r) => r.id))
  const seqs = JSON.stringify(from.map((r) => r.seq))
  const fromIds = sql`(SELECT value FROM json_each(${ids}))`
  const fromSeqs = sql`(SELECT value FROM json_each(${seqs}))`
  const move = (table: string, orIgnore = false) => tx.run(sql`UPDATE ${sql.raw(orIgnore ? 'OR IGNORE ' : '')}${sql.identifier(table)} SET report_id = ${to.id} WHERE report_id IN ${fromIds}`)
  move('attachments')
  for (const table of ['report_subscriptions', 'integration_links']) move(table, true)
  // One repository issue per report: one merged report's moves only when this one has none.
  tx.run(sql`UPDATE git_issue_links SET report_id = ${to.id}
    WHERE id = (SELECT id FROM git_issue_links WHERE report_id IN ${fromIds} LIMIT 1) AND NOT EXISTS (SELECT 1 FROM git_issue_links WHERE report_id = ${to.id})`)
  // Dependencies among the reports merged together would become a report blocking itself: they go; the others move.
  const all = sql`(SELECT value FROM json_each(${JSON.stringify([...from.map((r) => r.id), to.id])}))`
  tx.run(sql`DELETE FROM report_dependencies WHERE blocker_id IN ${all} AND blocked_id IN ${all}`)
  tx.run(sql`UPDATE OR IGNORE report_dependencies SET blocker_id = ${to.id} WHERE blocker_id IN ${fromIds}`)
  tx.run(sql`UPDATE OR IGNORE report_dependencies SET blocked_id = ${to.id} WHERE blocked_id IN ${fromIds}`)
  // A voter counts once: votes of people who voted for several are not added twice. Upvotes with no
  // voter row behind them (counted before votes were recorded per voter) carry over as they are.
  const unbacked = tx.all<{ n: number | null }>(sql`SELECT sum(max(0, r.upvotes - (SELECT count(*) FROM report_votes v WHERE v.report_seq = r.seq))) AS n FROM reports r WHERE r.id IN ${fromIds}`)[0]!.n ?? 0
  const before = tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM report_votes WHERE report_seq = ${to.seq}`)[0]!.n
  tx.run(sql`INSERT OR IGNORE INTO report_votes (report_seq, voter_key, address_key, created_at) SELECT ${to.seq}, voter_key, address_key, created_at FROM report_votes WHERE report_seq IN ${fromSeqs}`)
  const added = tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM report_votes WHERE report_seq = ${to.seq}`)[0]!.n - before
  tx.run(sql`UPDATE reports SET upvotes = upvotes + ${unbacked + added} WHERE id = ${to.id}`)
}
