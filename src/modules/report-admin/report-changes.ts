import type { AppDeps } from '../../app-deps'
import type { Query, Seam } from '../../db/client'
import { badRequest, forbidden } from '../../http/errors'
import type { Membership } from '../auth/accounts.repository'
import { canSeeProject } from '../auth/project-access'
import { type ActivityEntry, recordActivity, recordAudit } from '../activity/activity.service'
import { relabelReports } from '../labels/labels.service'
import { hasPermission } from '../permissions/permissions.catalog'
import { createProjectsRepository } from '../projects/projects.repository'
import { markTriaged } from '../reports/report-publication'
import { liveReport } from '../reports/project-reports'
import { createReportFacetsRepository } from '../reports/report-facets.repository'
import { COUNT_CAP, listFiltersOf, matchingReports } from '../reports/reports.list'
import { createReportsRepository, type Report, type ReportSelector } from '../reports/reports.repository'
import type { BulkDeleteBody, BulkUpdateBody, ListFilterQuery, UpdateReportBody } from '../reports/reports.schemas'
import { priorityRank, serializeReportForEvent } from '../reports/reports.service'
import { titleColumnsOf } from '../reports/title-terms'
import { groupingOfReport } from '../ingest/fingerprint'
import { newestVersion } from '../reports/report-versions'
import { enqueueWithdrawnFilesRemoval } from '../retention/retention.jobs'

type Deps = Pick<AppDeps, 'db' | 'clock' | 'events' | 'jobs'>

interface Actor {
  userId: string
  membership: Pick<Membership, 'role' | 'permissionOverrides'>
}

interface ProjectRef {
  id: string
  accountId: string
}

/** API field name → report column, for every field an update may touch. */
const FIELDS = {
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  category: 'category',
  assigned_to: 'assignedTo',
  is_private: 'isPrivate',
  platform: 'platform',
  published: 'published',
  on_roadmap: 'onRoadmap',
} as const satisfies Record<string, keyof Report>

type Field = keyof typeof FIELDS
type Changes = Partial<Pick<Report, (typeof FIELDS)[Field]>>

/**
 * The column values a body asks for, after checking the caller may assign and that the assignee
 * is on the project's team. Throws 400 "no valid fields to update" when the body sets nothing (and changes no label).
 */
async function requestedChanges(db: Seam, project: ProjectRef, actor: Actor, body: Partial<Record<Field, unknown>>, relabels = false): Promise<Changes> {
  const changes: Record<string, unknown> = {}
  for (const [field, column] of Object.entries(FIELDS)) {
    const value = body[field as Field]
    if (value !== undefined) changes[column] = value
  }
  if (Object.keys(changes).length === 0 && !relabels) throw badRequest('no valid fields to update')
  if ('assignedTo' in changes) {
    if (!hasPermission(actor.membership.role, actor.membership.permissionOverrides, 'bugs.assign')) throw forbidden('you need the bugs.assign permission')
    const assignee = (changes.assignedTo as string | null) || null
    changes.assignedTo = assignee
    if (assignee) {
      const member = await createReportsRepository({ db }).memberProjectIds(project.accountId, assignee)
      if (!member || !canSeeProject(member.projectIds, project.id)) throw badRequest("assigned_to must be a member of the project's team")
    }
  }
  return changes as Changes
}

/** field → [old, new] for the fields `changes` really changes on `r`. */
function diff(r: Report, changes: Changes): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {}
  for (const [field, column] of Object.entries(FIELDS)) {
    if (column in changes && changes[column] !== r[column]) out[field] = [r[column], changes[column]]
  }
  return out
}

/**
 * Applies the same changes to `targets` in `tx`: one UPDATE for the reports that really change,
 * an activity entry per changed field and one `bug_updated` event per changed report.
 */
async function applyChanges(deps: Deps, tx: Query, projectId: string, actorId: string, targets: Report[], changes: Changes): Promise<void> {
  const changed = targets.map((r) => ({ r, d: diff(r, changes) })).filter((c) => Object.keys(c.d).length > 0)
  if (changed.length === 0) return
  const now = deps.clock.now()
  const set = {
    ...changes,
    updatedAt: now,
    ...(changes.priority ? { priorityRank: priorityRank(changes.priority) } : {}),
    // A renamed report groups SDK submissions and suggests duplicates under its new title.
    ...(changes.title !== undefined ? titleColumnsOf(changes.title) : {}),
  }
  const repo = createReportsRepository({ db: deps.db })
  const updated = await repo.updateMany(
    changed.map((c) => c.r.id),
    set,
  )
  for (const { r, d } of changed) await followUps(repo, r, d)
  // A status change or an explicit publication is the team's touch the `triaged` publish mode waits for.
  await markTriaged(
    tx,
    changed.filter(({ d }) => d.status || d.published?.[1] === true).map(({ r }) => r.id),
    now,
  )
  const entries: ActivityEntry[] = changed.flatMap(({ r, d }) =>
    Object.entries(d).map(([field, [oldValue, newValue]]) => ({ projectId, reportId: r.id, actorId, action: 'updated', field, oldValue, newValue })),
  )
  await recordActivity(tx, now, entries)
  const diffs = new Map(changed.map((c) => [c.r.id, c.d]))
  for (const u of updated) {
    await deps.events.emit(tx, { type: 'bug_updated', projectId, reportId: u.id, actorId, data: serializeReportForEvent(u), changes: diffs.get(u.id)! })
  }
}

/**
 * What a change implies beyond its fields: resolving records the newest game version seen (an
 * occurrence from that build or an older one later does not reopen it); renaming a report grouped
 * by its title (a player's report) regroups it under the new title.
 */
async function followUps(repo: ReturnType<typeof createReportsRepository>, r: Report, d: Record<string, [unknown, unknown]>): Promise<void> {
  if (d.status?.[1] === 'resolved') await repo.update(r.id, { resolvedInVersion: newestVersion(r.versions) })
  if (d.title && r.fingerprint === groupingOfReport(r).fingerprint) {
    const g = groupingOfReport({ ...r, title: d.title[1] as string })
    await repo.update(r.id, { fingerprint: g.fingerprint, groupingLabel: g.label })
  }
}

/** `PATCH /bugs/{number}`. */
export async function updateReport(deps: Deps, project: ProjectRef, actor: Actor, rawNumber: string, body: UpdateReportBody): Promise<void> {
  await deps.db.write(async (tx) => {
    const report = await liveReport(deps.db, project.id, rawNumber)
    const changes = await requestedChanges(deps.db, project, actor, body)
    await applyChanges(deps, tx, project.id, actor.userId, [report], changes)
  })
}

/**
 * The live reports of the project a bulk body names: by `bug_ids` or `bug_numbers` (1 to 100), or by
 * `filter`, every report the list shows for it (400 past COUNT_CAP: narrow the filter). Exactly one.
 */
async function bulkSelector(db: Deps['db'], projectId: string, body: BulkDeleteBody): Promise<{ which: ReportSelector; filter: ListFilterQuery | null }> {
  const { bug_ids: ids, bug_numbers: numbers, filter } = body
  const given = [ids, numbers, filter].filter((x) => x !== undefined).length
  if (given > 1) throw badRequest('send one of bug_ids, bug_numbers or filter')
  if (given === 0) throw badRequest('bug_ids or bug_numbers (1 to 100 entries) or filter is required')
  if (!filter) return { which: ids ? { ids } : { numbers: numbers! }, filter: null }
  const matched = await matchingReports(db, projectId, await listFiltersOf(db, projectId, filter))
  if (matched.capped) throw badRequest(`filter: it matches more than ${COUNT_CAP.toLocaleString('en')} reports; bulk actions by filter take at most ${COUNT_CAP.toLocaleString('en')}, narrow it`)
  return { which: { ids: matched.reports.map((r) => r.id) }, filter }
}

/** A bulk action by filter is one audit entry: who, which filter, how many reports. */
async function auditByFilter(tx: Query, now: Date, project: ProjectRef, actorId: string, action: string, filter: ListFilterQuery, count: number, details: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(tx, now, { accountId: project.accountId, projectId: project.id, actorId, action, target: `${count} report${count === 1 ? '' : 's'}`, details: { filter, count, ...details } })
}

/**
 * `PATCH /bugs/bulk`: sets the same fields on the selected live reports in one transaction.
 * Answers how many live reports of this project were addressed (changed or already so).
 */
export async function bulkUpdateReports(deps: Deps, project: ProjectRef, actor: Actor, body: BulkUpdateBody): Promise<{ updated: number }> {
  const labels = { add: body.add_label_ids, remove: body.remove_label_ids }
  const relabels = labels.add !== undefined || labels.remove !== undefined
  if (relabels && !hasPermission(actor.membership.role, actor.membership.permissionOverrides, 'labels.manage')) throw forbidden('you need the labels.manage permission')
  return deps.db.write(async (tx) => {
    const changes = await requestedChanges(deps.db, project, actor, body, relabels)
    const { which, filter } = await bulkSelector(deps.db, project.id, body)
    const targets = await createReportsRepository({ db: deps.db }).liveReports(project.id, which)
    if (relabels) await relabelReports(deps, tx, { project, userId: actor.userId }, targets, labels)
    await applyChanges(deps, tx, project.id, actor.userId, targets, changes)
    const changed = [...Object.keys(changes), ...(labels.add ? ['add_label_ids'] : []), ...(labels.remove ? ['remove_label_ids'] : [])]
    if (filter) await auditByFilter(tx, deps.clock.now(), project, actor.userId, 'reports.bulk_updated', filter, targets.length, { changes: changed })
    return { updated: targets.length }
  })
}

/** Soft-deletes the project's live reports `which` names (one UPDATE), keeps the live counter in step and logs each deletion. */
async function softDelete(deps: Deps, tx: Query, projectId: string, actorId: string, which: ReportSelector): Promise<number> {
  const now = deps.clock.now()
  const gone = await createReportsRepository({ db: deps.db }).softDelete(projectId, which, now)
  if (gone.length === 0) return 0
  // The delete withdraws the reports' files at once (a trigger); a job then removes their bytes.
  await enqueueWithdrawnFilesRemoval(deps, tx, projectId)
  await createReportFacetsRepository({ db: tx }).dropOfReports(
    projectId,
    gone.map((g) => g.id),
  )
  await createProjectsRepository({ db: deps.db }).dropLiveReports(projectId, gone.length)
  await recordActivity(
    tx,
    now,
    gone.map((g) => ({ projectId, reportId: g.id, actorId, action: 'deleted' })),
  )
  return gone.length
}

/** `DELETE /bugs/{number}`: soft delete; the report still counts toward the plan's quota. */
export async function deleteReport(deps: Deps, projectId: string, actorId: string, rawNumber: string): Promise<void> {
  await deps.db.write(async (tx) => {
    const report = await liveReport(deps.db, projectId, rawNumber)
    await softDelete(deps, tx, projectId, actorId, { ids: [report.id] })
  })
}

/** `DELETE /bugs/bulk`: soft-deletes the selected live reports of the project. */
export async function bulkDeleteReports(deps: Deps, project: ProjectRef, actorId: string, body: BulkDeleteBody): Promise<{ deleted: number }> {
  return deps.db.write(async (tx) => {
    const { which, filter } = await bulkSelector(deps.db, project.id, body)
    const deleted = await softDelete(deps, tx, project.id, actorId, which)
    if (filter) await auditByFilter(tx, deps.clock.now(), project, actorId, 'reports.bulk_deleted', filter, deleted)
    return { deleted }
  })
}
