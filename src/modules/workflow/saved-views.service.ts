import { and, asc, eq } from 'drizzle-orm'
import type { AppDeps } from '../../app-deps'
import type { DbOrTx, Tx } from '../../db/client'
import { badRequest, notFound } from '../../http/errors'
import { newId } from '../../lib/ids'
import { accountMembers } from '../accounts/accounts.table'
import { canSeeProject } from '../accounts/project-access'
import { hasPermission } from '../permissions/permissions.catalog'
import { projects } from '../projects/projects.table'
import type { SavedViewBody, UpdateSavedViewBody } from './workflow.schemas'
import { savedFilters, savedViews } from './workflow.table'

type Deps = Pick<AppDeps, 'db' | 'clock'>
type View = typeof savedViews.$inferSelect

/** 404 unless `userId` may read `projectId`'s reports (saved filters and views are only for those). */
function assertReadable(db: DbOrTx, userId: string, projectId: string): void {
  const row = db
    .select({ role: accountMembers.role, overrides: accountMembers.permissionOverrides, projectIds: accountMembers.projectIds })
    .from(projects)
    .innerJoin(accountMembers, and(eq(accountMembers.accountId, projects.accountId), eq(accountMembers.userId, userId)))
    .where(eq(projects.id, projectId))
    .get()
  if (!row || !canSeeProject(row.projectIds, projectId) || !hasPermission(row.role, row.overrides, 'bugs.view')) throw notFound('project not found')
}

const filterView = (f: typeof savedFilters.$inferSelect) => ({ id: f.id, name: f.name, project_id: f.projectId, filters: f.filters, created_at: f.createdAt.toISOString() })
const viewView = (v: View) => ({ id: v.id, name: v.name, project_id: v.projectId, filters: v.filters, sort_by: v.sortBy, pinned: v.pinned, position: v.position, created_at: v.createdAt.toISOString(), updated_at: v.updatedAt.toISOString() })

/** `GET /saved-filters`: the caller's own, optionally of one project. */
export function listSavedFilters(db: DbOrTx, userId: string, projectId?: string) {
  return db
    .select()
    .from(savedFilters)
    .where(and(eq(savedFilters.userId, userId), projectId ? eq(savedFilters.projectId, projectId) : undefined))
    .orderBy(asc(savedFilters.createdAt), asc(savedFilters.id))
    .all()
    .map(filterView)
}

/** `POST /saved-filters`. */
export function createSavedFilter(deps: Deps, userId: string, body: { name: string; project_id: string; filters: Record<string, string> }) {
  assertReadable(deps.db, userId, body.project_id)
  const row = deps.db.insert(savedFilters).values({ id: newId(), userId, projectId: body.project_id, name: body.name, filters: body.filters, createdAt: deps.clock.now() }).returning().get()!
  return filterView(row)
}

/** `DELETE /saved-filters/{id}`: only the owner's (404 otherwise). */
export function deleteSavedFilter(deps: Deps, userId: string, id: string): void {
  const gone = deps.db.delete(savedFilters).where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId))).returning({ id: savedFilters.id }).all()
  if (gone.length === 0) throw notFound('saved filter not found')
}

/** `GET /saved-views`: the caller's own, by project and position. */
export function listSavedViews(db: DbOrTx, userId: string, projectId?: string) {
  return db
    .select()
    .from(savedViews)
    .where(and(eq(savedViews.userId, userId), projectId ? eq(savedViews.projectId, projectId) : undefined))
    .orderBy(asc(savedViews.projectId), asc(savedViews.position))
    .all()
    .map(viewView)
}

const siblings = (tx: Tx, userId: string, projectId: string) =>
  tx.select().from(savedViews).where(and(eq(savedViews.userId, userId), eq(savedViews.projectId, projectId))).orderBy(asc(savedViews.position), asc(savedViews.createdAt)).all()

/** Renumbers the owner's views of a project 0..n-1 in `order`. */
function renumber(tx: Tx, order: View[]) {
  order.forEach((v, i) => {
    if (v.position !== i) tx.update(savedViews).set({ position: i }).where(eq(savedViews.id, v.id)).run()
  })
}

/** `POST /saved-views`: at `position` (default last) among the owner's views of the project. */
export function createSavedView(deps: Deps, userId: string, body: SavedViewBody) {
  assertReadable(deps.db, userId, body.project_id)
  return deps.db.transaction((tx) => {
    const now = deps.clock.now()
    const others = siblings(tx, userId, body.project_id)
    const row = tx
      .insert(savedViews)
      .values({ id: newId(), userId, projectId: body.project_id, name: body.name, filters: body.filters ?? {}, sortBy: body.sort_by ?? null, pinned: body.pinned ?? false, position: others.length, createdAt: now, updatedAt: now })
      .returning()
      .get()!
    const at = Math.min(body.position ?? others.length, others.length)
    renumber(tx, [...others.slice(0, at), row, ...others.slice(at)])
    return viewView(tx.select().from(savedViews).where(eq(savedViews.id, row.id)).get()!)
  })
}

/** `PATCH /saved-views/{id}`: any field; `position` moves it among the owner's views without gaps. */
export function updateSavedView(deps: Deps, userId: string, id: string, body: UpdateSavedViewBody) {
  return deps.db.transaction((tx) => {
    const view = tx.select().from(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.userId, userId))).get()
    if (!view) throw notFound('saved view not found')
    const set = {
      ...(body.name !== undefined && { name: body.name }),
      ...(body.filters !== undefined && { filters: body.filters }),
      ...(body.sort_by !== undefined && { sortBy: body.sort_by }),
      ...(body.pinned !== undefined && { pinned: body.pinned }),
    }
    if (Object.keys(set).length === 0 && body.position === undefined) throw badRequest('no valid fields to update')
    tx.update(savedViews).set({ ...set, updatedAt: deps.clock.now() }).where(eq(savedViews.id, id)).run()
    if (body.position !== undefined) {
      const others = siblings(tx, userId, view.projectId).filter((v) => v.id !== id)
      const at = Math.min(body.position, others.length)
      renumber(tx, [...others.slice(0, at), view, ...others.slice(at)])
    }
    return viewView(tx.select().from(savedViews).where(eq(savedViews.id, id)).get()!)
  })
}

/** `DELETE /saved-views/{id}`: the others close the gap. */
export function deleteSavedView(deps: Deps, userId: string, id: string): void {
  deps.db.transaction((tx) => {
    const view = tx.select().from(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.userId, userId))).get()
    if (!view) throw notFound('saved view not found')
    tx.delete(savedViews).where(eq(savedViews.id, id)).run()
    renumber(tx, siblings(tx, userId, view.projectId))
  })
}

