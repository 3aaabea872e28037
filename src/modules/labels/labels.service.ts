import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx, Tx } from '../../db/client'
import { badRequest, conflict, notFound } from '../../http/errors'
import type { Project } from '../../http/auth.plugin'
import { newId } from '../../lib/ids'
import { recordActivity, recordAudit } from '../activity/activity.service'
import { liveReportByNumber } from '../projects/project-reports'
import { markTriaged } from '../public/publication'
import type { CreateLabelBody, UpdateLabelBody } from './labels.schemas'
import { DEFAULT_LABEL_COLOR, labels, reportLabels } from './labels.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type Label = typeof labels.$inferSelect

const serialize = (l: Label) => ({ id: l.id, name: l.name, color: l.color, created_at: l.createdAt.toISOString() })

/** The project's labels, by name. */
export function listLabels(db: DbOrTx, projectId: string) {
  return db.select().from(labels).where(eq(labels.projectId, projectId)).orderBy(asc(labels.name)).all().map(serialize)
}

/** Whether `labelId` is a label of the project. */
export const labelExists = (db: DbOrTx, projectId: string, labelId: string): boolean =>
  db.select({ id: labels.id }).from(labels).where(and(eq(labels.projectId, projectId), eq(labels.id, labelId))).get() !== undefined

function labelOf(db: DbOrTx, projectId: string, labelId: string): Label {
  const row = db.select().from(labels).where(and(eq(labels.projectId, projectId), eq(labels.id, labelId))).get()
  if (!row) throw notFound('label not found')
  return row
}

// Names are unique per project regardless of case, so "Crash" and "crash" cannot both exist.
function assertNameFree(tx: DbOrTx, projectId: string, name: string, exceptId?: string) {
  const clash = tx
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.projectId, projectId), sql`lower(${labels.name}) = lower(${name})`, exceptId ? ne(labels.id, exceptId) : undefined))
    .get()
  if (clash) throw conflict(`a label named "${name}" already exists`)
}

/** Creates a label (409 when the project already has one of that name). */
export function createLabel(deps: Deps, ctx: { project: Project; userId: string }, input: CreateLabelBody) {
  const now = deps.clock.now()
  const row = { id: newId(), projectId: ctx.project.id, name: input.name, color: input.color ?? DEFAULT_LABEL_COLOR, createdAt: now }
  deps.db.transaction((tx) => {
    assertNameFree(tx, ctx.project.id, row.name)
    tx.insert(labels).values(row).run()
    audit(tx, now, ctx, 'label.created', row.id, { name: row.name, color: row.color })
  })
  return { id: row.id, name: row.name, color: row.color }
}

/** Renames or recolors a label. */
export function updateLabel(deps: Deps, ctx: { project: Project; userId: string }, labelId: string, input: UpdateLabelBody): void {
  if (input.name === undefined && input.color === undefined) throw badRequest('no valid fields to update')
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const label = labelOf(tx, ctx.project.id, labelId)
    if (input.name !== undefined) assertNameFree(tx, ctx.project.id, input.name, label.id)
    tx.update(labels).set({ name: input.name ?? label.name, color: input.color ?? label.color }).where(eq(labels.id, label.id)).run()
    audit(tx, now, ctx, 'label.updated', label.id, { from: { name: label.name, color: label.color }, to: { name: input.name ?? label.name, color: input.color ?? label.color } })
  })
}

/** Deletes a label; the foreign key takes it off every report. */
export function deleteLabel(deps: Deps, ctx: { project: Project; userId: string }, labelId: string): void {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const label = labelOf(tx, ctx.project.id, labelId)
    tx.delete(labels).where(eq(labels.id, label.id)).run()
    audit(tx, now, ctx, 'label.deleted', label.id, { name: label.name })
  })
}

/** Puts a label on a live report; putting it on again changes nothing. */
export function applyLabel(deps: Deps, ctx: { project: Project; userId: string }, number: string, labelId: string): void {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const report = liveReportByNumber(tx, ctx.project.id, number)
    const label = labelOf(tx, ctx.project.id, labelId)
    const added = tx.insert(reportLabels).values({ reportId: report.id, reportSeq: report.seq, labelId: label.id }).onConflictDoNothing().returning({ labelId: reportLabels.labelId }).all()
    if (added.length > 0) {
      markTriaged(tx, [report.id], now)
      recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'labeled', field: 'labels', newValue: label.name }])
    }
  })
}

/** Takes a label off a live report; taking off one that is not there changes nothing. */
export function removeLabel(deps: Deps, ctx: { project: Project; userId: string }, number: string, labelId: string): void {
  const now = deps.clock.now()
  deps.db.transaction((tx) => {
    const report = liveReportByNumber(tx, ctx.project.id, number)
    const label = labelOf(tx, ctx.project.id, labelId)
    const removed = tx.delete(reportLabels).where(and(eq(reportLabels.reportId, report.id), eq(reportLabels.labelId, label.id))).returning({ labelId: reportLabels.labelId }).all()
    if (removed.length > 0) {
      recordActivity(tx, now, [{ projectId: ctx.project.id, reportId: report.id, actorId: ctx.userId, action: 'unlabeled', field: 'labels', oldValue: label.name }])
    }
  })
}

function audit(tx: Tx, now: Date, ctx: { project: Project; userId: string }, action: string, target: string, details: Record<string, unknown>) {
  recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action, target, details })
}
