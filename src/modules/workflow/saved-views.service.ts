import type { AppDeps } from '../../app-deps'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { createAccountsRepository } from '../auth/accounts.repository'
import { canSeeProject } from '../auth/project-access'
import { hasPermission } from '../permissions/permissions.catalog'
import { createProjectsRepository } from '../projects/projects.repository'
import { createSavedViewsRepository, type SavedFilter, type SavedView } from './saved-views.repository'
import type { SavedViewBody, UpdateSavedViewBody } from './workflow.schemas'

type Deps = Pick<AppDeps, 'db' | 'clock'>

const savedOf = (deps: Pick<AppDeps, 'db'>) => createSavedViewsRepository({ db: deps.db })

/** 404 unless `userId` may read `projectId`'s reports (saved filters and views are only for those). */
async function assertReadable(deps: Pick<AppDeps, 'db'>, userId: string, projectId: string): Promise<void> {
  const project = await createProjectsRepository({ db: deps.db }).byId(projectId)
  const row = project && (await createAccountsRepository({ db: deps.db }).membership(project.accountId, userId))
  if (!row || !canSeeProject(row.projectIds, projectId) || !hasPermission(row.role, row.permissionOverrides, 'bugs.view')) throw notFound('project not found')
}

const filterView = (f: SavedFilter) => ({ id: f.id, name: f.name, project_id: f.projectId, filters: f.filters, created_at: f.createdAt.toISOString() })
const viewView = (v: SavedView) => ({ id: v.id, name: v.name, project_id: v.projectId, filters: v.filters, sort_by: v.sortBy, pinned: v.pinned, position: v.position, created_at: v.createdAt.toISOString(), updated_at: v.updatedAt.toISOString() })

/** `GET /saved-filters`: the caller's own, optionally of one project. */
export async function listSavedFilters(deps: Pick<AppDeps, 'db'>, userId: string, projectId?: string) {
  return (await savedOf(deps).filters(userId, projectId)).map(filterView)
}

/** `POST /saved-filters`. */
export async function createSavedFilter(deps: Deps, userId: string, body: { name: string; project_id: string; filters: Record<string, string> }) {
  await assertReadable(deps, userId, body.project_id)
  return filterView(await savedOf(deps).insertFilter({ id: newId(), userId, projectId: body.project_id, name: body.name, filters: body.filters, createdAt: deps.clock.now() }))
}

/** `DELETE /saved-filters/{id}`: only the owner's (404 otherwise). */
export async function deleteSavedFilter(deps: Deps, userId: string, id: string): Promise<void> {
  if (!(await savedOf(deps).removeFilter(userId, id))) throw notFound('saved filter not found')
}

/** `GET /saved-views`: the caller's own, by project and position. */
export async function listSavedViews(deps: Pick<AppDeps, 'db'>, userId: string, projectId?: string) {
  return (await savedOf(deps).views(userId, projectId)).map(viewView)
}

/** `POST /saved-views`: at `position` (default last) among the owner's views of the project. */
export async function createSavedView(deps: Deps, userId: string, body: SavedViewBody) {
  await assertReadable(deps, userId, body.project_id)
  return deps.db.write(async () => {
    const now = deps.clock.now()
    const others = await savedOf(deps).siblings(userId, body.project_id)
    const row = await savedOf(deps).insertView({ id: newId(), userId, projectId: body.project_id, name: body.name, filters: body.filters ?? {}, sortBy: body.sort_by ?? null, pinned: body.pinned ?? false, position: others.length, createdAt: now, updatedAt: now })
    const at = Math.min(body.position ?? others.length, others.length)
    await savedOf(deps).renumber([...others.slice(0, at), row, ...others.slice(at)])
    return viewView((await savedOf(deps).view(userId, row.id))!)
  })
}

/** `PATCH /saved-views/{id}`: any field; `position` moves it among the owner's views without gaps. */
export async function updateSavedView(deps: Deps, userId: string, id: string, body: UpdateSavedViewBody) {
  return deps.db.write(async () => {
    const view = await savedOf(deps).view(userId, id)
    if (!view) throw notFound('saved view not found')
    const set = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.filters !== undefined && { filters: body.filters }),
      ...(body.sort_by !== undefined && { sortBy: body.sort_by }),
      ...(body.pinned !== undefined && { pinned: body.pinned }),
    }
    if (Object.keys(set).length === 0 && body.position === undefined) throw badRequest('no valid fields to update')
    await savedOf(deps).updateView(id, { ...set, updatedAt: deps.clock.now() })
    if (body.position !== undefined) {
      const others = (await savedOf(deps).siblings(userId, view.projectId)).filter((v) => v.id !== id)
      const at = Math.min(body.position, others.length)
      await savedOf(deps).renumber([...others.slice(0, at), view, ...others.slice(at)])
    }
    return viewView((await savedOf(deps).view(userId, id))!)
  })
}

/** `DELETE /saved-views/{id}`: the others close the gap. */
export async function deleteSavedView(deps: Deps, userId: string, id: string): Promise<void> {
  await deps.db.write(async () => {
    const view = await savedOf(deps).view(userId, id)
    if (!view) throw notFound('saved view not found')
    await savedOf(deps).removeView(id)
    await savedOf(deps).renumber(await savedOf(deps).siblings(userId, view.projectId))
  })
}
