import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import type { Account, Membership } from '../auth/accounts.repository'
import type { Actor } from '../team/team.service'
import { overridesBody, projectOverridesBody, userIdQuery } from './permissions.schemas'
import { catalogView, effectiveView, memberPermissions, membersPermissions, resetOverrides, updateOverrides, type OverridesInput } from './permissions.service'

const tags = ['Permissions']
const security = [{ session: [] }]
type Ctx = { user: { id: string }; account: Account; membership: Membership; project?: { id: string } }
const actorOf = (c: Ctx): Actor => ({ userId: c.user.id, account: c.account, membership: c.membership, projectId: c.project?.id })

/** The permission catalog, your effective set and per-member overrides (spec 4.10), account-level and project-scoped. */
export function permissionsRoutes(deps: AppDeps) {
  const read = (c: Ctx & { params: { userId: string } }) => memberPermissions(deps.db, c.account.id, c.params.userId, c.membership.projectIds)
  const put = (c: Ctx & { params: { userId: string }; body: OverridesInput }) => updateOverrides(deps, actorOf(c), c.params.userId, c.body)
  const reset = (c: Ctx & { params: { userId: string } }) => resetOverrides(deps, actorOf(c), c.params.userId)

  return new Elysia()
    .use(authPlugin(deps))
    .get('/permissions', ({ membership }) => effectiveView(membership), { accountPermission: true, detail: { tags, summary: 'Your effective permissions', security } })
    .get('/permissions/available', () => catalogView(), { auth: true, detail: { tags, summary: 'The permission catalog', security } })
    .get('/account/members/:userId/permissions', read, { accountPermission: true, detail: { tags, summary: "A member's permissions and overrides", security } })
    .put('/account/members/:userId/permissions', put, { accountPermission: 'team.permissions', body: overridesBody, detail: { tags, summary: "Set a member's overrides", security } })
    .delete('/account/members/:userId/permissions', reset, { accountPermission: 'team.permissions', detail: { tags, summary: 'Reset a member to role defaults', security } })
    .get(
      '/projects/:slug/permissions',
      async ({ account, membership }) => ({ ...effectiveView(membership), members: await membersPermissions(deps.db, account.id, membership.projectIds) }),
      { project: true, detail: { tags, summary: "Your permissions and every member's in the project's account", security } },
    )
    .put('/projects/:slug/permissions', (c) => updateOverrides(deps, actorOf(c), c.body.user_id, c.body), {
      project: 'team.permissions',
      body: projectOverridesBody,
      detail: { tags, summary: "Set a member's overrides (user_id in the body)", security },
    })
    .delete('/projects/:slug/permissions', (c) => resetOverrides(deps, actorOf(c), c.query.user_id), {
      project: 'team.permissions',
      query: userIdQuery,
      detail: { tags, summary: 'Reset a member (query user_id) to role defaults', security },
    })
    .get('/projects/:slug/permissions/:userId', read, { project: true, detail: { tags, summary: "A member's permissions and overrides", security } })
    .put('/projects/:slug/permissions/:userId', put, { project: 'team.permissions', body: overridesBody, detail: { tags, summary: "Set a member's overrides", security } })
    .delete('/projects/:slug/permissions/:userId', reset, { project: 'team.permissions', detail: { tags, summary: 'Reset a member to role defaults', security } })
}
