import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { Tx } from '../../db/client'
import type { Project } from '../../http/auth.plugin'
import { badRequest } from '../../http/errors'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { projects } from '../projects/projects.table'
import { findLiveReport } from '../reports/reports.read'
import type { Report } from '../reports/reports.service'
import { reports } from '../reports/reports.table'
import { recountReport } from './recount'

/**
 * `POST /bugs/{number}/merge {numbers}`: folds other reports of the project into this one, as when
 * they had been grouped together from the start. Their occurrences (with their files) become this
 * report's; comments, labels, votes, subscriptions, attachments, performance samples, replays and
 * links to trackers and repositories carry over (where this report has no link of its own to that
 * tool); the merged reports are deleted with `merged_into` set, so their numbers redirect here. One
 * transaction, audited; splitting the moved occurrences out again undoes it.
 */
export function mergeReports(deps: Pick<AppDeps, 'db' | 'clock'>, project: Project, actorId: string, number: string, numbers: number[]) {
  return deps.db.transaction((tx) => {
    const survivor = findLiveReport(tx, project.id, number)
    const wanted = [...new Set(numbers)]
    if (wanted.includes(survivor.reportNumber)) throw badRequest('numbers: a report cannot be merged into itself')
    const merged = tx
      .select()
      .from(reports)
      .where(and(eq(reports.projectId, project.id), inArray(reports.reportNumber, wanted), isNull(reports.deletedAt)))
      .all()
    if (merged.length !== wanted.length) {
      const found = new Set(merged.map((r) => r.reportNumber))
      throw badRequest(`numbers: no live report #${wanted.filter((n) => !found.has(n)).join(', #')} in this project`)
    }
    const now = deps.clock.now()
    for (const m of merged) moveEverything(tx, m, survivor)
    tx.update(reports).set({ deletedAt: now, mergedInto: survivor.id, updatedAt: now }).where(inArray(reports.id, merged.map((m) => m.id))).run()
    tx.update(projects).set({ liveReportCount: sql`max(${projects.liveReportCount} - ${merged.length}, 0)` }).where(eq(projects.id, project.id)).run()
    recountReport(tx, survivor)
    const mergedNumbers = merged.map((m) => m.reportNumber).sort((a, b) => a - b)
    recordActivity(tx, now, [
      { projectId: project.id, reportId: survivor.id, actorId, action: 'merged', newValue: mergedNumbers },
      ...merged.map((m) => ({ projectId: project.id, reportId: m.id, actorId, action: 'merged_into', newValue: survivor.reportNumber })),
    ])
    recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action: 'reports.merged', target: `#${survivor.reportNumber}`, details: { merged: mergedNumbers } })
    const after = tx.select({ occurrences: reports.occurrenceCount, players: reports.playerCount, upvotes: reports.upvotes }).from(reports).where(eq(reports.id, survivor.id)).get()!
    return { id: survivor.id, report_number: survivor.reportNumber, merged: mergedNumbers, occurrence_count: after.occurrences, player_count: after.players, upvotes: after.upvotes }
  })
}

/** Moves what belongs to `from` onto `to`; rows `to` already has an equivalent of (a label, a voter, a tracker link) stay behind. */
function moveEverything(tx: Tx, from: Report, to: Report): void {
  const move = (table: string) => tx.run(sql`UPDATE ${sql.identifier(table)} SET report_id = ${to.id} WHERE report_id = ${from.id}`)
  const moveOrKeep = (table: string) => tx.run(sql`UPDATE OR IGNORE ${sql.identifier(table)} SET report_id = ${to.id} WHERE report_id = ${from.id}`)
  for (const table of ['report_occurrences', 'attachments', 'comments', 'perf_snapshots', 'session_replays']) move(table)
  for (const table of ['report_subscriptions', 'integration_links']) moveOrKeep(table)
  // One repository issue per report: the merged report's moves only when this one has none.
  tx.run(sql`UPDATE git_issue_links SET report_id = ${to.id} WHERE report_id = ${from.id} AND NOT EXISTS (SELECT 1 FROM git_issue_links WHERE report_id = ${to.id})`)
  tx.run(sql`INSERT OR IGNORE INTO report_labels (report_id, report_seq, label_id) SELECT ${to.id}, ${to.seq}, label_id FROM report_labels WHERE report_id = ${from.id}`)
  // Dependencies between the two would become a report blocking itself: they go; the others move.
  tx.run(sql`DELETE FROM report_dependencies WHERE (blocker_id = ${from.id} AND blocked_id = ${to.id}) OR (blocker_id = ${to.id} AND blocked_id = ${from.id})`)
  tx.run(sql`UPDATE OR IGNORE report_dependencies SET blocker_id = ${to.id} WHERE blocker_id = ${from.id}`)
  tx.run(sql`UPDATE OR IGNORE report_dependencies SET blocked_id = ${to.id} WHERE blocked_id = ${from.id}`)
  // A voter counts once: votes of people who voted for both are not added twice.
  const votes = tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM report_votes WHERE report_seq = ${from.seq}`)[0]!.n
  const before = tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM report_votes WHERE report_seq = ${to.seq}`)[0]!.n
  tx.run(sql`INSERT OR IGNORE INTO report_votes (report_seq, voter_key, address_key, created_at) SELECT ${to.seq}, voter_key, address_key, created_at FROM report_votes WHERE report_seq = ${from.seq}`)
  const added = tx.all<{ n: number }>(sql`SELECT count(*) AS n FROM report_votes WHERE report_seq = ${to.seq}`)[0]!.n - before
  tx.run(sql`UPDATE reports SET upvotes = upvotes + max(0, ${from.upvotes - (votes - added)}) WHERE id = ${to.id}`)
}
