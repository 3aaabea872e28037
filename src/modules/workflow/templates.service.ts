import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx } from '../../db/client'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import type { TemplateBody } from './workflow.schemas'
import { reportTemplates } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type Template = typeof reportTemplates.$inferSelect
interface Ctx {
  project: { id: string; accountId: string }
  userId: string
}

const view = (t: Template) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  priority: t.priority,
  category: t.category,
  body_template: t.bodyTemplate,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
})

/** `GET /templates`, by name. */
export const listTemplates = (db: DbOrTx, projectId: string) =>
  db.select().from(reportTemplates).where(eq(reportTemplates.projectId, projectId)).orderBy(asc(sql`lower(${reportTemplates.name})`)).all().map(view)

function assertNameFree(db: DbOrTx, projectId: string, name: string, exceptId?: string) {
  const taken = db
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(and(eq(reportTemplates.projectId, projectId), eq(sql`lower(${reportTemplates.name})`, name.toLowerCase()), exceptId ? ne(reportTemplates.id, exceptId) : undefined))
    .get()
  if (taken) throw conflict(`a template named "${name}" already exists`)
}

const columnsOf = (b: TemplateBody) => ({
  ...(b.name !== undefined && { name: b.name }),
  ...(b.description !== undefined && { description: b.description }),
  ...(b.priority !== undefined && { priority: b.priority }),
  ...(b.category !== undefined && { category: b.category }),
  ...(b.body_template !== undefined && { bodyTemplate: b.body_template }),
})

/** `POST /templates`: 409 when the name exists in the project. */
export function createTemplate(deps: Deps, ctx: Ctx, body: TemplateBody & { name: string }) {
  return deps.db.transaction((tx) => {
    assertNameFree(tx, ctx.project.id, body.name)
    const now = deps.clock.now()
    const row = tx.insert(reportTemplates).values({ id: newId(), projectId: ctx.project.id, createdBy: ctx.userId, createdAt: now, updatedAt: now, ...columnsOf(body), name: body.name }).returning().get()!
    recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.created', target: row.id, details: { name: row.name } })
    return view(row)
  })
}

function findTemplate(db: DbOrTx, projectId: string, id: string): Template {
  const row = db.select().from(reportTemplates).where(and(eq(reportTemplates.id, id), eq(reportTemplates.projectId, projectId))).get()
  if (!row) throw notFound('template not found')
  return row
}

/** `PATCH /templates/{id}`: 400 when nothing is sent, 409 on a taken name. */
export function updateTemplate(deps: Deps, ctx: Ctx, id: string, body: TemplateBody) {
  const set = columnsOf(body)
  return deps.db.transaction((tx) => {
    findTemplate(tx, ctx.project.id, id)
    if (Object.keys(set).length === 0) throw badRequest('no valid fields to update')
    if (set.name) assertNameFree(tx, ctx.project.id, set.name, id)
    const now = deps.clock.now()
    const row = tx.update(reportTemplates).set({ ...set, updatedAt: now }).where(eq(reportTemplates.id, id)).returning().get()!
    recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.updated', target: id, details: { fields: Object.keys(body) } })
    return view(row)
  })
}

/** `DELETE /templates/{id}`. */
export function deleteTemplate(deps: Deps, ctx: Ctx, id: string): void {
  deps.db.transaction((tx) => {
    const row = findTemplate(tx, ctx.project.id, id)
    tx.delete(reportTemplates).where(eq(reportTemplates.id, id)).run()
    recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.deleted', target: id, details: { name: row.name } })
  })
}
