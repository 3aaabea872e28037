import { unsubscribeToken } from '../../../src/modules/notifications/notifications.tokens'
import { createUser } from '../../helpers/fixtures'
import type { Tour } from './tour.types'

/** Notification preferences, the team account, its members, invitations and permissions. */
export const teamTour: Tour = {
  'GET /api/notifications/preferences': {},
  'PUT /api/notifications/preferences': { body: () => ({ email_bug_commented: false, email_weekly_digest: true }) },
  'GET /api/notifications/unsubscribe': {
    as: 'anonymous',
    before: async (w) => void (w.v.unsubscribeToken = await unsubscribeToken(w.t.deps, w.owner.user.id, 'email_weekly_digest')),
    query: (w) => ({ token: w.v.unsubscribeToken! }),
  },
  'POST /api/notifications/unsubscribe': { as: 'anonymous', body: (w) => ({ token: w.v.unsubscribeToken! }) },

  'GET /api/account': {},
  'PATCH /api/account': { body: () => ({ name: 'Comet Studio' }) },
  'POST /api/account/invites': { body: (w) => ({ email: w.v.mateEmail, role: 'member' }), keep: (d, w) => (w.v.inviteToken = d.token) },
  'POST /api/account/invites/accept': { token: (w) => w.mate.token, body: (w) => ({ token: w.v.inviteToken }) },
  'DELETE /api/account/invites/{inviteId}': {
    before: async (w) => {
      const res = await w.t.request('POST', '/api/account/invites', { token: w.owner.token, body: { email: 'maybe-later@studio.example' } })
      w.v.inviteId = res.body.data.id
    },
  },
  'GET /api/account/members': {},
  'PATCH /api/account/members/{userId}': { params: (w) => ({ userId: w.v.mateId! }), body: () => ({ role: 'admin' }) },
  'GET /api/projects/{slug}/members': {},
  'PATCH /api/projects/{slug}/members/{userId}': { params: (w) => ({ userId: w.v.mateId! }), body: (w) => ({ role: 'member', project_access: [w.v.projectId] }) },
  'POST /api/projects/{slug}/invites': {
    before: async (w) => {
      const guest = await createUser(w.t, { email: 'guest@outsourcer.example' })
      w.v.guestToken = guest.token
      w.v.guestId = guest.user.id
    },
    body: (w) => ({ email: 'guest@outsourcer.example', role: 'member', project_access: [w.v.projectId] }),
    keep: (d, w) => (w.v.projectInviteToken = d.token),
  },
  'POST /api/invites/accept': { token: (w) => w.v.guestToken!, body: (w) => ({ token: w.v.projectInviteToken }) },
  'DELETE /api/projects/{slug}/invites/{inviteId}': {
    before: async (w) => {
      const res = await w.t.request('POST', `/api/projects/${w.v.slug}/invites`, { token: w.owner.token, body: { email: 'qa@outsourcer.example' } })
      w.v.projectInviteId = res.body.data.id
    },
    params: (w) => ({ inviteId: w.v.projectInviteId! }),
  },

  'GET /api/permissions': {},
  'GET /api/permissions/available': {},
  'GET /api/account/members/{userId}/permissions': { params: (w) => ({ userId: w.v.mateId! }) },
  'PUT /api/account/members/{userId}/permissions': { params: (w) => ({ userId: w.v.mateId! }), body: () => ({ permissions: { 'bugs.delete': true } }) },
  'DELETE /api/account/members/{userId}/permissions': { params: (w) => ({ userId: w.v.mateId! }) },
  'GET /api/projects/{slug}/permissions': {},
  'PUT /api/projects/{slug}/permissions': { body: (w) => ({ user_id: w.v.mateId, permissions: { 'bugs.assign': true } }) },
  'DELETE /api/projects/{slug}/permissions': { query: (w) => ({ user_id: w.v.mateId! }) },
  'GET /api/projects/{slug}/permissions/{userId}': { params: (w) => ({ userId: w.v.mateId! }) },
  'PUT /api/projects/{slug}/permissions/{userId}': { params: (w) => ({ userId: w.v.mateId! }), body: () => ({ permissions: { 'bugs.delete': false } }) },
  'DELETE /api/projects/{slug}/permissions/{userId}': { params: (w) => ({ userId: w.v.mateId! }) },
}
