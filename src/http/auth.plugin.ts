import { Elysia } from 'elysia'
import type { AppDeps } from '../app-deps'
import { createAccountsRepository } from '../modules/auth/accounts.repository'
import { workingAccountOf } from '../modules/auth/accounts.service'
import { canSeeProject } from '../modules/auth/project-access'
import { createAuthRepository } from '../modules/auth/auth.repository'
import { sha256Hex } from '../lib/ids'
import { hasPermission, type PermissionKey } from '../modules/permissions/permissions.catalog'
import { slugMoved } from '../modules/projects/project-slugs'
import { createProjectsRepository } from '../modules/projects/projects.repository'
import { checkCookieOrigin, sessionCookieOf } from './browser-session'
import { forbidden, notFound, unauthorized } from './errors'
import { sdkCallerOf } from './sdk-callers'

export const INVALID_API_KEY = 'invalid API key'

/** The token of an `Authorization: Bearer` header, or null. */
export function bearer(headers: Record<string, string | undefined>): string | null {
  const h = headers.authorization
  if (!h) return null
  const m = /^Bearer\s+(\S+)$/i.exec(h)
  return m ? m[1]! : null
}

/**
 * Auth as route options: `{ auth: true }` needs a session and gives `user`;
 * `{ project: 'bugs.assign' }` (or `true` for membership only) also loads `params.slug`'s project,
 * answering 404 to non-members and to members limited to other projects, 403 to members without the permission;
 * `{ apiKey: true }` resolves the SDK's project from `X-API-Key` (or body `api_key`);
 * `{ accountPermission: 'team.invite' }` (or `true`) gives `user`, the `account` they work in and their `membership`,
 * answering 403 without the permission.
 */
export function authPlugin(deps: AppDeps) {
  const { db, clock } = deps

  const authRepo = createAuthRepository({ db })
  const projectsRepo = createProjectsRepository({ db })
  const accountsRepo = createAccountsRepository({ db })

  const sessionUser = async (headers: Record<string, string | undefined>, method: string) => {
    // Without an Authorization header the web app's session cookie counts, for its own pages only.
    let token = bearer(headers)
    if (!token && !headers.authorization) {
      token = sessionCookieOf(headers)
      if (token) checkCookieOrigin(deps.config, method, headers)
    }
    const found = token ? await authRepo.sessionUser(sha256Hex(token), clock.now()) : undefined
    if (!found) throw unauthorized('missing or invalid session token')
    return found
  }

  /** A member who sees a renamed project, asking for it by its old slug, is sent to the same route under the new one. */
  const movedFor = async (request: Request, slug: string, userId: string) => {
    const moved = await projectsRepo.movedTo(slug, clock.now())
    const membership = moved && (await accountsRepo.membership(moved.accountId, userId))
    // A member limited to other projects gets the 404 a stranger gets: the new slug is not theirs to learn.
    if (moved && membership && canSeeProject(membership.projectIds, moved.id)) {
      throw slugMoved({ method: request.method, url: request.url, prefix: '/projects/', from: slug, to: moved.slug })
    }
  }

  const projectAccess = async (request: Request, headers: Record<string, string | undefined>, params: unknown, permission: PermissionKey | true) => {
    const { user, sessionId } = await sessionUser(headers, request.method)
    const slug = (params as Record<string, string>).slug ?? ''
    const project = await projectsRepo.rowBySlug(slug)
    if (!project) await movedFor(request, slug, user.id)
    const membership = project ? await accountsRepo.membership(project.accountId, user.id) : undefined
    const account = membership ? await accountsRepo.byId(project!.accountId) : undefined
    // A member limited to chosen projects finds the others exactly as a stranger does.
    if (!project || !membership || !account || !canSeeProject(membership.projectIds, project.id)) throw notFound('project not found')
    if (permission !== true && !hasPermission(membership.role, membership.permissionOverrides, permission)) {
      throw forbidden(`you need the ${permission} permission`)
    }
    return { user, sessionId, project, membership, account }
  }

  const accountAccess = async (headers: Record<string, string | undefined>, method: string, permission: PermissionKey | true) => {
    const { user, sessionId } = await sessionUser(headers, method)
    const row = await workingAccountOf(db, user)
    if (!row) throw notFound('account not found')
    if (permission !== true && !hasPermission(row.membership.role, row.membership.permissionOverrides, permission)) {
      throw forbidden(`you need the ${permission} permission`)
    }
    return { user, sessionId, account: row.account, membership: row.membership }
  }

  const keyProject = async (headers: Record<string, string | undefined>, body: unknown) => {
    const key = headers['x-api-key'] ?? (body as { api_key?: unknown } | undefined)?.api_key
    if (typeof key !== 'string' || !key.startsWith('sk_live_')) throw unauthorized(INVALID_API_KEY)
    const caller = await sdkCallerOf(db, key)
    if (!caller) throw unauthorized(INVALID_API_KEY)
    return caller
  }

  // Checks run in `transform`, before body validation, so an unauthenticated or non-member caller
  // learns nothing from validation messages (401/404/403 come first); `resolve` hands the result on.
  const resolved = new WeakMap<Request, Record<string, unknown>>()
  const guard = <T extends Record<string, unknown>>(
    check: (ctx: { headers: Record<string, string | undefined>; params: unknown; body: unknown; request: Request }) => T | Promise<T>,
  ) => ({
    // The context's parts by name, not the whole context: Elysia reads a hook's source to learn what the
    // route needs, and a whole context would make every guarded route parse its cookies and query too.
    async transform({ request, headers, params, body }: { request: Request; headers: Record<string, string | undefined>; params: unknown; body: unknown }) {
      resolved.set(request, await check({ request, headers, params, body }))
    },
    resolve({ request }: { request: Request }) {
      return resolved.get(request) as T
    },
  })

  return new Elysia({ name: 'auth', seed: deps.instanceId }).macro({
    auth: guard(({ headers, request }) => sessionUser(headers, request.method)),
    project: (permission: PermissionKey | true) => guard(({ headers, params, request }) => projectAccess(request, headers, params, permission)),
    accountPermission: (permission: PermissionKey | true) => guard(({ headers, request }) => accountAccess(headers, request.method, permission)),
    apiKey: guard(({ headers, body }) => keyProject(headers, body)),
  })
}
