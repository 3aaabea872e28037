import type { Tour } from './tour.types'

/** Steps that end what the others use: the teammate's membership, the project key, a project, a session and an account. */
export const lastTour: Tour = {
  'DELETE /api/projects/{slug}/members/{userId}': { params: (w) => ({ userId: w.v.guestId! }) },
  'DELETE /api/account/members/{userId}': { params: (w) => ({ userId: w.v.mateId! }) },
  'POST /api/projects/{slug}/rotate-key': {},
  'DELETE /api/projects/{slug}': { params: (w) => ({ slug: w.v.slug2! }) },
  'POST /api/auth/logout': { as: 'user' },
  'DELETE /api/auth/account': {
    as: 'user',
    before: async (w) => {
      const res = await w.t.request('POST', '/api/auth/login', { body: { email: 'dana@studio.example', password: 'third password 3' } })
      w.v.userToken = res.body.data.token
    },
    body: () => ({ confirmation: 'DELETE' }),
  },
}
