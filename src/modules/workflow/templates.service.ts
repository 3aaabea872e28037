import type { AppDeps } from '../../app-deps'
import { badRequest, conflict, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { recordAudit } from '../activity/activity.service'
import type { TemplateBody } from './workflow.schemas'
import { createWorkflowRepository, type Template } from './workflow.repository'

type Deps = Pick<AppDeps, 'db' | 'clock'>
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

const templatesOf = (deps: Pick<AppDeps, 'db'>) => createWorkflowRepository({ db: deps.db })

/** `GET /templates`, by name. */
export const listTemplates = async (deps: Pick<AppDeps, 'db'>, projectId: string) => (await templatesOf(deps).templates(projectId)).map(view)

async function assertNameFree(deps: Pick<AppDeps, 'db'>, projectId: string, name: string, exceptId?: string) {
  if (await templatesOf(deps).templateNameTaken(projectId, name, exceptId)) throw conflict(`a template named "${name}" already exists`)
}

const columnsOf = (b: TemplateBody) => ({
  ...(b.name !== undefined && { name: b.name }),
  ...(b.description !== undefined && { description: b.description }),
  ...(b.priority !== undefined && { priority: b.priority }),
  ...(b.category !== undefined && { category: b.category }),
  ...(b.body_template !== undefined && { bodyTemplate: b.body_template }),
})

/** `POST /templates`: 409 when the name exists in the project. */
export async function createTemplate(deps: Deps, ctx: Ctx, body: TemplateBody & { name: string }) {
  return deps.db.write(async (tx) => {
    await assertNameFree(deps, ctx.project.id, body.name)
    const now = deps.clock.now()
    const row = await templatesOf(deps).insertTemplate({ id: newId(), projectId: ctx.project.id, createdBy: ctx.userId, createdAt: now, updatedAt: now, ...columnsOf(body), name: body.name })
    await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.created', target: row.id, details: { name: row.name } })
    return view(row)
  })
}

async function findTemplate(deps: Pick<AppDeps, 'db'>, projectId: string, id: string): Promise<Template> {
  const row = await templatesOf(deps).template(projectId, id)
  if (!row) throw notFound('template not found')
  return row
}

/** `PATCH /templates/{id}`: 400 when nothing is sent, 409 on a taken name. */
export async function updateTemplate(deps: Deps, ctx: Ctx, id: string, body: TemplateBody) {
  const set = columnsOf(body)
  return deps.db.write(async (tx) => {
    await findTemplate(deps, ctx.project.id, id)
    if (Object.keys(set).length === 0) throw badRequest('no valid fields to update')
    if (set.name) await assertNameFree(deps, ctx.project.id, set.name, id)
    const now = deps.clock.now()
    const row = await templatesOf(deps).updateTemplate(id, { ...set, updatedAt: now })
    await recordAudit(tx, now, { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.updated', target: id, details: { fields: Object.keys(body) } })
    return view(row)
  })
}

/** `DELETE /templates/{id}`. */
export async function deleteTemplate(deps: Deps, ctx: Ctx, id: string): Promise<void> {
  await deps.db.write(async (tx) => {
    const row = await findTemplate(deps, ctx.project.id, id)
    await templatesOf(deps).removeTemplate(id)
    await recordAudit(tx, deps.clock.now(), { accountId: ctx.project.accountId, projectId: ctx.project.id, actorId: ctx.userId, action: 'template.deleted', target: id, details: { name: row.name } })
  })
}
