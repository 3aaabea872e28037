import type { AppDeps } from '../../app-deps'
import type { Query, Seam } from '../../db/client'
import { badRequest, conflict, notFound } from '../../http/errors'
import type { Project } from '../projects/projects.repository'
import { newId } from '../../lib/ids'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { liveReportByNumber } from '../reports/project-reports'
import { markTriaged } from '../reports/report-publication'
import type { LabelView } from '../reports/reports.views'
import { createLabelsRepository, type Label } from './labels.repository'
import type { CreateLabelBody, UpdateLabelBody } from './labels.schemas'
import { DEFAULT_LABEL_COLOR } from './labels.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type Actor = { project: Project; userId: string }

const serialize = (l: Label) => ({ id: l.id, name: l.name, color: l.color, created_at: l.createdAt.toISOString() })

const labelsOf = (deps: Pick<AppDeps, 'db'>) => createLabelsRepository({ db: deps.db })

/** The project's labels, by name. */
export async function listLabels(deps: Pick<AppDeps, 'db'>, projectId: string) {
  return (await labelsOf(deps).list(projectId)).map(serialize)
}

/** Whether `labelId` is a label of the project. */
export const labelExists = async (deps: Pick<AppDeps, 'db'>, projectId: string, labelId: string): Promise<boolean> => (await labelsOf(deps).find(projectId, labelId)) !== undefined

async function labelOf(deps: Deps, projectId: string, labelId: string): Promise<Label> {
  const row = await labelsOf(deps).find(projectId, labelId)
  if (!row) throw notFound('label not found')
  return row
}

// Names are unique per project regardless of case, so "Crash" and "crash" cannot both exist.
async function assertNameFree(deps: Deps, projectId: string, name: string, exceptId?: string) {
  if (await labelsOf(deps).nameTaken(projectId, name, exceptId)) throw conflict(`a label named "${name}" already exists`)
}

/** Creates a label (409 when the project already has one of that name). */
export async function createLabel(deps: Deps, ctx: Actor, input: CreateLabelBody) {
  const now = deps.clock.now()
  const row = { id: newId(), projectId: ctx.project.id, name: input.name, color: input.color ?? DEFAULT_LABEL_COLOR, createdAt: now }
  await deps.db.write(async (tx) => {
    await assertNameFree(deps, ctx.project.id, row.name)
    await labelsOf(deps).insert(row)
    await audit(tx, now, ctx, 'label.created', row.id, { name: row.name, color: row.color })
  })
  return { id: row.id, name: row.name, color: row.color }
}

/** Renames or recolors a label. */
export async function updateLabel(deps: Deps, ctx: Actor, labelId: string, input: UpdateLabelBody): Promise<void> {
  if (input.name === undefined && input.color === undefined) throw badRequest('no valid fields to update')
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    const label = await labelOf(deps, ctx.project.id, labelId)
    if (input.name !== undefined) await assertNameFree(deps, ctx.project.id, input.name, label.id)
    const to = { name: input.name ?? label.name, color: input.color ?? label.color }
    await labelsOf(deps).update(label.id, to)
    await audit(tx, now, ctx, 'label.updated', label.id, { from: { name: label.name, color: label.color }, to })
  })
}

/** Deletes a label; the foreign key takes it off every report. */
export async function deleteLabel(deps: Deps, ctx: Actor, labelId: string): Promise<void> {
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    const label = await labelOf(deps, ctx.project.id, labelId)
    await labelsOf(deps).remove(label.id)
    await audit(tx, now, ctx, 'label.deleted', label.id, { name: label.name })
  })
}

/** Puts a label on a live report; putting it on again changes nothing. */
export async function applyLabel(deps: Deps, ctx: Actor, number: string, labelId: string): Promise<void> {
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    const report = await liveReportByNumber(tx, ctx.project.id, number)
    const label = await labelOf(deps, ctx.project.id, labelId)
    if (await labelsOf(deps).attach(report, label.id)) {
      await markTriaged(tx, [report.id], now)
      await recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'labeled', field: 'labels', newValue: label.name }])
    }
  })
}

/** Takes a label off a live report; taking off one that is not there changes nothing. */
export async function removeLabel(deps: Deps, ctx: Actor, number: string, labelId: string): Promise<void> {
  const now = deps.clock.now()
  await deps.db.write(async (tx) => {
    const report = await liveReportByNumber(tx, ctx.project.id, number)
    const label = await labelOf(deps, ctx.project.id, labelId)
    if (await labelsOf(deps).detach(report.id, label.id)) {
      await recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'unlabeled', field: 'labels', oldValue: label.name }])
    }
  })
}

/** Labels a bulk action puts on or takes off its reports (label ids of the project). */
export interface LabelChanges {
  add?: string[]
  remove?: string[]
}

/**
 * Puts labels on and takes labels off `reports` (live reports of the project, a bulk action) in `tx`:
 * 404 before any change when a label is not the project's; an activity entry per report a label
 * really reached or left. Answers whether any report changed.
 */
export async function relabelReports(deps: Deps, tx: Query, ctx: { project: Pick<Project, 'id'>; userId: string }, reports: { id: string; seq: number }[], changes: LabelChanges): Promise<boolean> {
  const now = deps.clock.now()
  const add = await Promise.all([...new Set(changes.add ?? [])].map((id) => labelOf(deps, ctx.project.id, id)))
  const remove = await Promise.all([...new Set(changes.remove ?? [])].map((id) => labelOf(deps, ctx.project.id, id)))
  const repo = labelsOf(deps)
  const entries = []
  for (const label of add) {
    for (const reportId of await repo.attachMany(reports, label.id)) entries.push({ projectId: ctx.project.id, reportId, actorId: ctx.userId, action: 'labeled', field: 'labels', newValue: label.name })
  }
  for (const label of remove) {
    const ids = reports.map((r) => r.id)
    for (const reportId of await repo.detachMany(ids, label.id)) entries.push({ projectId: ctx.project.id, reportId, actorId: ctx.userId, action: 'unlabeled', field: 'labels', oldValue: label.name })
  }
  // A label is the team's touch the `triaged` publish mode waits for, as one put on a single report is.
  await markTriaged(tx, [...new Set(entries.filter((e) => e.action === 'labeled').map((e) => e.reportId))], now)
  await recordActivity(tx, now, entries)
  return entries.length > 0
}

async function audit(tx: Query, now: Date, ctx: Actor, action: string, target: string, details: Record<string, unknown>): Promise<void> {
  await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action, target, details })
}

/** Labels of many reports in one query, grouped by report id. */
export async function labelsByReport(db: Seam, reportIds: string[]): Promise<Map<string, LabelView[]>> {
  const out = new Map<string, LabelView[]>()
  if (reportIds.length === 0) return out
  for (const row of await createLabelsRepository({ db }).ofReports(reportIds)) {
    const list = out.get(row.reportId) ?? []
    list.push({ id: row.id, name: row.name, color: row.color })
    out.set(row.reportId, list)
  }
  return out
}
