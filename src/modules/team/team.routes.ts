import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin, type Account, type Membership } from '../../http/auth.plugin'
import { acceptInvitation, createInvitation, revokeInvitation } from './invitations.service'
import type { ProjectAccess } from '../accounts/project-access'
import { acceptInviteBody, changeMemberBody, inviteBody, renameAccountBody } from './team.schemas'
import { accountView, listMembers, pendingInvitations, removeMember, renameAccount, updateMember, type Actor } from './team.service'

const tags = ['Team']
const security = [{ session: [] }]
/** What the account and project macros resolve, as far as these handlers need it. */
type Ctx = { user: { id: string }; account: Account; membership: Membership; project?: { id: string } }
const actorOf = (c: Ctx): Actor => ({ userId: c.user.id, account: c.account, membership: c.membership, projectId: c.project?.id })

/** Account, roster and invitation routes (spec 4.10), account-level and project-scoped over the same data. */
export function teamRoutes(deps: AppDeps) {
  const now = () => deps.clock.now()
  const roster = (c: Ctx) => ({
    members: listMembers(deps.db, c.account.id, { viewerIds: c.membership.projectIds, projectId: c.project?.id }),
    pending_invitations: pendingInvitations(deps.db, c.account.id, now(), c.membership.projectIds),
  })
  const update = (c: Ctx & { params: { userId: string }; body: { role?: 'admin' | 'member'; project_access?: ProjectAccess } }) => {
    updateMember(deps, actorOf(c), c.params.userId, c.body)
    return { message: 'Member updated' }
  }
  const remove = (c: Ctx & { params: { userId: string } }) =>
    removeMember(deps, actorOf(c), c.params.userId).left ? { message: 'You left the account' } : { message: 'Member removed' }
  const invite = (c: Ctx & { body: { email: string; role: 'admin' | 'member'; project_access?: ProjectAccess }; set: { status?: number | string } }) => {
    c.set.status = 201
    return createInvitation(deps, actorOf(c), c.body)
  }
  const revoke = (c: Ctx & { params: { inviteId: string } }) => {
    revokeInvitation(deps, actorOf(c), c.params.inviteId)
    return { message: 'Invitation revoked' }
  }
  const accept = ({ user, body }: { user: Parameters<typeof acceptInvitation>[1]; body: { token: string } }) => acceptInvitation(deps, user, body.token)

  return new Elysia()
    .use(authPlugin(deps))
    .get('/account', (c) => accountView(deps.db, actorOf(c), now()), { accountPermission: true, detail: { tags, summary: 'The account you work in', security } })
    .patch(
      '/account',
      (c) => {
        renameAccount(deps, actorOf(c), c.body.name)
        return { message: 'Account updated' }
      },
      { accountPermission: true, body: renameAccountBody, detail: { tags, summary: 'Rename the account (owner or admin)', security } },
    )
    .get('/account/members', roster, { accountPermission: true, detail: { tags, summary: 'Roster and pending invitations', security } })
    .patch('/account/members/:userId', update, { accountPermission: true, body: changeMemberBody, detail: { tags, summary: "Change a member's role or the projects they see (owner or admin)", security } })
    .delete('/account/members/:userId', remove, { accountPermission: true, detail: { tags, summary: 'Remove a member, or leave with your own id', security } })
    .post('/account/invites', invite, { accountPermission: 'team.invite', body: inviteBody, detail: { tags, summary: 'Invite someone by email', security } })
    .post('/account/invites/accept', accept, { auth: true, body: acceptInviteBody, detail: { tags, summary: 'Accept an invitation', security } })
    .delete('/account/invites/:inviteId', revoke, { accountPermission: 'team.invite', detail: { tags, summary: 'Revoke an invitation', security } })
    .get('/projects/:slug/members', roster, { project: true, detail: { tags, summary: "The account's members who see the project, and the account's pending invitations", security } })
    .patch('/projects/:slug/members/:userId', update, { project: true, body: changeMemberBody, detail: { tags, summary: "Change a member's role or the projects they see (owner or admin)", security } })
    .delete('/projects/:slug/members/:userId', remove, { project: true, detail: { tags, summary: 'Remove a member from the account', security } })
    .post('/projects/:slug/invites', invite, { project: 'team.invite', body: inviteBody, detail: { tags, summary: "Invite someone into the project's account", security } })
    .delete('/projects/:slug/invites/:inviteId', revoke, { project: 'team.invite', detail: { tags, summary: 'Revoke an invitation', security } })
    .post('/invites/accept', accept, { auth: true, body: acceptInviteBody, detail: { tags, summary: 'Accept an invitation', security } })
}
