import { Elysia } from 'elysia'
import type { AppDeps } from '../../app-deps'
import { authPlugin } from '../../http/auth.plugin'
import type { Account, Membership } from '../auth/accounts.repository'
import { acceptInvitation, createInvitation, revokeInvitation } from './invitations.service'
import type { ProjectAccess } from '../auth/project-access'
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
  const roster = async (c: Ctx) => {
    const [members, pending] = await Promise.all([
      listMembers(deps.db, c.account.id, { viewerIds: c.membership.projectIds, projectId: c.project?.id }),
      pendingInvitations(deps.db, c.account.id, now(), c.membership.projectIds),
    ])
    return { members, pending_invitations: pending }
  }
  const update = async (c: Ctx & { params: { userId: string }; body: { role?: 'admin' | 'member'; project_access?: ProjectAccess } }) => {
    await updateMember(deps, actorOf(c), c.params.userId, c.body)
    return { message: 'Member updated' }
  }
  const remove = async (c: Ctx & { params: { userId: string } }) =>
    (await removeMember(deps, actorOf(c), c.params.userId)).left ? { message: 'You left the account' } : { message: 'Member removed' }
  const invite = async (c: Ctx & { body: { email: string; role: 'admin' | 'member'; project_access?: ProjectAccess }; set: { status?: number | string } }) => {
    const created = await createInvitation(deps, actorOf(c), c.body)
    c.set.status = 201
    return created
  }
  const revoke = async (c: Ctx & { params: { inviteId: string } }) => {
    await revokeInvitation(deps, actorOf(c), c.params.inviteId)
    return { message: 'Invitation revoked' }
  }
  const accept = ({ user, body }: { user: Parameters<typeof acceptInvitation>[1]; body: { token: string } }) => acceptInvitation(deps, user, body.token)

  return new Elysia()
    .use(authPlugin(deps))
    .get('/account', (c) => accountView(deps.db, actorOf(c), now()), { accountPermission: true, detail: { tags, summary: 'The account you work in', security } })
    .patch(
      '/account',
      async (c) => {
        await renameAccount(deps, actorOf(c), c.body.name)
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
